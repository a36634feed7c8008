//! `report`: hand-written SVG plots and a markdown table from `measure` CSVs.
//!
//! - `humanlike-loss-by-band.svg`: mean capped cp loss per rating band, the humans' curve and one
//!   line per measured setting (each on the same positions).
//! - `humanlike-elo-vs-loss.svg`: a setting's nominal Elo against its mean loss on the positions
//!   of the band that contains that Elo, over the humans' band curve (x = band centre).
//! - `humanlike-report.md`: the per-band table of every label.

use super::stats::{CSV_HEADER, split_csv};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One CSV row, by column name.
#[derive(Clone, Debug)]
pub struct Row {
    pub label: String,
    pub elo: Option<u32>,
    pub band: u32,
    pub n: usize,
    fields: BTreeMap<String, String>,
}

impl Row {
    pub fn num(&self, col: &str) -> f64 {
        self.fields.get(col).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
    }
}

pub fn read_rows(path: &Path) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<String> = split_csv(lines.next().unwrap_or(CSV_HEADER));
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let vals = split_csv(line);
        if vals.len() != header.len() {
            return Err(format!("{}:{}: {} fields, header has {}", path.display(), i + 2, vals.len(), header.len()));
        }
        let fields: BTreeMap<String, String> = header.iter().cloned().zip(vals).collect();
        let get = |k: &str| fields.get(k).cloned().unwrap_or_default();
        rows.push(Row {
            label: get("label"),
            elo: get("elo").parse().ok(),
            band: get("band").parse().map_err(|_| format!("{}:{}: bad band", path.display(), i + 2))?,
            n: get("n").parse().unwrap_or(0),
            fields,
        });
    }
    Ok(rows)
}

/// A line (or a set of points) on a plot.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub colour: String,
    pub dashed: bool,
    pub width: f64,
}

const PALETTE: [&str; 10] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn nice_step(range: f64) -> f64 {
    let raw = range / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag)
}

/// A line chart with axes, grid, ticks and a legend on the right.
pub fn line_chart(title: &str, xlabel: &str, ylabel: &str, series: &[Series]) -> String {
    let (w, h) = (900.0, 520.0);
    let (left, right, top, bottom) = (70.0, 300.0, 40.0, 60.0);
    let pts = series.iter().flat_map(|s| s.points.iter()).filter(|(x, y)| x.is_finite() && y.is_finite());
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        (x0, x1) = (0.0, 1.0);
    }
    let xs = nice_step(x1 - x0).max(1e-9);
    let (x0, x1) = ((x0 / xs).floor() * xs, (x1 / xs).ceil() * xs);
    let ys = nice_step(y1.max(1.0));
    let (y0, y1) = (0.0, (y1 / ys).ceil() * ys);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let sx = |x: f64| left + (x - x0) / (x1 - x0).max(1e-9) * pw;
    let sy = |y: f64| top + ph - (y - y0) / (y1 - y0).max(1e-9) * ph;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        left + pw / 2.0,
        escape(title)
    );
    let mut x = x0;
    while x <= x1 + 1e-9 {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#ddd"/><text x="{0:.1}" y="{3:.1}" text-anchor="middle">{4}</text>"##,
            sx(x),
            top,
            top + ph,
            top + ph + 16.0,
            x
        );
        x += xs;
    }
    let mut y = y0;
    while y <= y1 + 1e-9 {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{2:.1}" y2="{1:.1}" stroke="#ddd"/><text x="{3:.1}" y="{4:.1}" text-anchor="end">{5}</text>"##,
            left,
            sy(y),
            left + pw,
            left - 6.0,
            sy(y) + 4.0,
            y
        );
        y += ys;
    }
    let _ = writeln!(s, r##"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#333"/>"##);
    let _ =
        writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#, left + pw / 2.0, h - 15.0, escape(xlabel));
    let _ = writeln!(
        s,
        r#"<text x="18" y="{0}" text-anchor="middle" transform="rotate(-90 18 {0})">{1}</text>"#,
        top + ph / 2.0,
        escape(ylabel)
    );
    for (i, se) in series.iter().enumerate() {
        let pts: Vec<(f64, f64)> = se.points.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite()).collect();
        let dash = if se.dashed { r#" stroke-dasharray="6 4""# } else { "" };
        if pts.len() > 1 {
            let path: Vec<String> = pts.iter().map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y))).collect();
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{}"{dash}/>"#,
                path.join(" "),
                se.colour,
                se.width
            );
        }
        for &(x, y) in &pts {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{}"/>"#, sx(x), sy(y), se.colour);
        }
        let ly = top + 10.0 + 20.0 * i as f64;
        let lx = left + pw + 15.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{}" stroke-width="{}"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 24.0,
            se.colour,
            se.width,
            lx + 30.0,
            ly + 4.0,
            escape(&se.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Humans' per-band curve (x = band centre) from any rows (every row carries the human numbers).
fn human_curve(rows: &[Row], col: &str) -> Vec<(f64, f64)> {
    let mut by_band: BTreeMap<u32, f64> = BTreeMap::new();
    for r in rows {
        by_band.entry(r.band).or_insert_with(|| r.num(col));
    }
    by_band.into_iter().map(|(b, v)| (f64::from(b) + 100.0, v)).collect()
}

pub fn run(csvs: &[PathBuf], out_dir: &Path) -> Result<(), String> {
    let mut rows = Vec::new();
    for c in csvs {
        rows.extend(read_rows(c)?);
    }
    if rows.is_empty() {
        return Err("no rows in the CSV files".into());
    }
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    // labels in first-seen order, humans excluded from the setting lines
    let mut labels: Vec<String> = Vec::new();
    for r in &rows {
        if r.label != "humans" && !labels.contains(&r.label) {
            labels.push(r.label.clone());
        }
    }
    let humans = Series {
        name: "humans (band)".into(),
        points: human_curve(&rows, "human_mean_loss"),
        colour: "#000".into(),
        dashed: false,
        width: 3.0,
    };

    let mut by_band = vec![humans];
    for (i, l) in labels.iter().enumerate() {
        let pts =
            rows.iter().filter(|r| &r.label == l).map(|r| (f64::from(r.band) + 100.0, r.num("mean_loss"))).collect();
        by_band.push(Series {
            name: l.clone(),
            points: pts,
            colour: PALETTE[i % PALETTE.len()].into(),
            dashed: true,
            width: 1.5,
        });
    }
    let svg = line_chart(
        "Mean centipawn loss (capped 300) per rating band, same positions",
        "mover's rating band (centre)",
        "mean cp loss",
        &by_band,
    );
    write(out_dir, "humanlike-loss-by-band.svg", &svg)?;

    // Nominal Elo vs loss on the band containing it, per engine (label prefix before the last space).
    let mut families: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for l in &labels {
        let mine: Vec<&Row> = rows.iter().filter(|r| &r.label == l).collect();
        let Some(elo) = mine.first().and_then(|r| r.elo) else { continue };
        let band = elo / 200 * 200;
        let loss = match mine.iter().find(|r| r.band == band) {
            Some(r) => r.num("mean_loss"),
            None => {
                let n: usize = mine.iter().map(|r| r.n).sum();
                mine.iter().map(|r| r.num("mean_loss") * r.n as f64).sum::<f64>() / n.max(1) as f64
            }
        };
        let family = l.rsplit_once(' ').map(|(a, _)| a.to_string()).unwrap_or_else(|| l.clone());
        families.entry(family).or_default().push((f64::from(elo), loss));
    }
    let mut elo_series = vec![Series {
        name: "humans (band centre)".into(),
        points: human_curve(&rows, "human_mean_loss"),
        colour: "#000".into(),
        dashed: false,
        width: 3.0,
    }];
    for (i, (name, mut pts)) in families.into_iter().enumerate() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        elo_series.push(Series {
            name: format!("{name} (set Elo)"),
            points: pts,
            colour: PALETTE[i % PALETTE.len()].into(),
            dashed: true,
            width: 2.0,
        });
    }
    let svg = line_chart(
        "Set Elo vs mean cp loss on that rating band's positions",
        "rating (humans: band centre; engines: set UCI_Elo)",
        "mean cp loss",
        &elo_series,
    );
    write(out_dir, "humanlike-elo-vs-loss.svg", &svg)?;

    let mut md = String::from("# Human-likeness per rating band\n\n");
    md.push_str("Generated by `sparring humanlike report`. Loss = oracle best − played, capped at 300 cp; ");
    md.push_str("ASE = mean ln(1 + loss/100); KS = two-sample Kolmogorov–Smirnov distance to the humans' losses.\n\n");
    // Band-matched view: each setting with a nominal Elo, on the positions of the band holding it.
    md.push_str("## Band-matched: each setting on its own band's positions\n\n");
    md.push_str("Target for a human-scale ladder point: loss within ±10 % of the humans', KS ≤ 0.08.\n\n");
    md.push_str("| label | set Elo | band | n | match | loss | humans' loss | loss / humans' | KS | within ±10 % and KS ≤ 0.08 |\n");
    md.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
    for l in &labels {
        let mine: Vec<&Row> = rows.iter().filter(|r| &r.label == l).collect();
        let Some(elo) = mine.first().and_then(|r| r.elo) else { continue };
        let Some(r) = mine.iter().find(|r| r.band == elo / 200 * 200) else { continue };
        let ratio = r.num("mean_loss") / r.num("human_mean_loss");
        let ok = (ratio - 1.0).abs() <= 0.10 && r.num("ks") <= 0.08;
        let _ = writeln!(
            md,
            "| {l} | {elo} | {} | {} | {:.3} | {:.1} | {:.1} | {:.2} | {:.3} | {} |",
            r.band,
            r.n,
            r.num("match_rate"),
            r.num("mean_loss"),
            r.num("human_mean_loss"),
            ratio,
            r.num("ks"),
            if ok { "yes" } else { "no" }
        );
    }
    md.push('\n');
    let mut all_labels = vec!["humans".to_string()];
    all_labels.extend(labels.iter().cloned());
    for l in all_labels {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.label == l).collect();
        if mine.is_empty() {
            continue;
        }
        let _ = writeln!(md, "## {l}\n");
        md.push_str("| band | n | match | top | loss | humans' loss | ASE | humans' ASE | ≥50 | ≥100 | ≥300 | KS |\n");
        md.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for r in mine {
            let _ = writeln!(
                md,
                "| {} | {} | {:.3} | {:.3} | {:.1} | {:.1} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
                r.band,
                r.n,
                r.num("match_rate"),
                r.num("top_rate"),
                r.num("mean_loss"),
                r.num("human_mean_loss"),
                r.num("mean_scaled_error"),
                r.num("human_mean_scaled_error"),
                r.num("rate50"),
                r.num("rate100"),
                r.num("rate300"),
                r.num("ks")
            );
        }
        md.push('\n');
    }
    write(out_dir, "humanlike-report.md", &md)?;
    eprintln!(
        "wrote humanlike-loss-by-band.svg, humanlike-elo-vs-loss.svg, humanlike-report.md to {}",
        out_dir.display()
    );
    Ok(())
}

fn write(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    let p = dir.join(name);
    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
}
