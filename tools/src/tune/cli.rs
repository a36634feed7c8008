//! The command line of `sparring tune`.

use super::*;
use clap::Parser;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "sparring tune", about = "Fit the evaluator's group weights to reference scores of quiet positions")]
pub struct Args {
    /// Scored positions: FEN<TAB>white cp[<TAB>best move].
    pub data: std::path::PathBuf,
    /// Gradient-descent iterations.
    #[arg(long, default_value_t = 3000)]
    pub iterations: usize,
    /// Adam step size, in percent of weight.
    #[arg(long, default_value_t = 0.5)]
    pub rate: f64,
    /// Ridge penalty pulling every weight towards 100 %: adds RIDGE * mean(((w - 100) / 100)^2) to
    /// the loss (0 = plain least squares).
    #[arg(long, default_value_t = 0.0)]
    pub ridge: f64,
    /// Also leave these groups at 100 % (comma-separated names; Material always is).
    #[arg(long, value_delimiter = ',')]
    pub fixed: Vec<String>,
    /// Fit every value inside the groups (Texel local search) instead of the group weights.
    #[arg(long)]
    pub values: bool,
    /// With --values: start from these weights: `tuned` (the evaluator's) or a JSON file.
    #[arg(long, default_value = "tuned")]
    pub start: String,
    /// With --values: write the fitted weights (JSON) here.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// With --values: values that never move, as JSON-pointer prefixes (e.g.
    /// `/material/value,/king`; default none).
    #[arg(long = "anchor", value_delimiter = ',')]
    pub anchors: Vec<String>,
    /// With --values: the reference scale to hold (default: fitted to the starting values).
    #[arg(long)]
    pub alpha: Option<f64>,
    /// With --values: afterwards multiply every value by one factor so that the evaluator keeps
    /// the starting values' scale against the reference (a fit to a noisy reference shrinks it).
    #[arg(long)]
    pub keep_scale: bool,
    /// With --values: at most this many passes over all values.
    #[arg(long, default_value_t = 20)]
    pub passes: usize,
    /// With --values: stop after this many minutes (the best values so far are kept).
    #[arg(long, default_value_t = 60.0)]
    pub minutes: f64,
}

pub fn main(args: Args) -> ExitCode {
    let text = match std::fs::read_to_string(&args.data) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sparring tune: {}: {e}", args.data.display());
            return ExitCode::from(2);
        }
    };
    if args.values {
        return run_values(&args, &text);
    }
    let mut fixed = vec![false; 2 * Term::COUNT];
    let material = Term::Material.index();
    fixed[2 * material] = true;
    fixed[2 * material + 1] = true;
    for name in &args.fixed {
        let Some(t) = Term::from_name(name) else {
            eprintln!("sparring tune: --fixed: unknown group '{name}'");
            return ExitCode::from(2);
        };
        fixed[2 * t.index()] = true;
        fixed[2 * t.index() + 1] = true;
    }
    let (samples, skipped) = load(&text);
    if samples.len() < 1000 {
        eprintln!("sparring tune: only {} usable positions ({skipped} left out); need at least 1000", samples.len());
        return ExitCode::from(2);
    }
    let train: Vec<&Sample> = samples.iter().enumerate().filter(|(i, _)| i % 5 != 0).map(|(_, s)| s).collect();
    let held: Vec<&Sample> = samples.iter().enumerate().filter(|(i, _)| i % 5 == 0).map(|(_, s)| s).collect();
    let base = vec![100.0; 2 * Term::COUNT];
    let alpha0 = fit_alpha(&train, &base);
    println!(
        "{} positions ({} train, {} held out; {skipped} lines left out); reference scale alpha = {alpha0:.4}",
        samples.len(),
        train.len(),
        held.len()
    );
    let (mut w, mut alpha) = (base.clone(), alpha0);
    for round in 1..=ROUNDS {
        w = fit(&train, alpha, args.iterations, args.rate, &fixed, args.ridge);
        alpha = fit_alpha(&train, &w);
        println!("round {round}: alpha = {alpha:.4}, train loss x 1e4 {:.3}", 1e4 * loss(&train, &w, alpha));
    }
    println!(
        "loss x 1e4: train {:.3} -> {:.3}, held out {:.3} -> {:.3}",
        1e4 * loss(&train, &base, alpha0),
        1e4 * loss(&train, &w, alpha),
        1e4 * loss(&held, &base, alpha0),
        1e4 * loss(&held, &w, alpha)
    );
    println!("{:>14}  {:>5}  {:>5}", "group", "mg %", "eg %");
    for t in Term::ALL {
        let i = t.index();
        println!("{:>14}  {:>5.0}  {:>5.0}", t.name(), w[2 * i], w[2 * i + 1]);
    }
    ExitCode::SUCCESS
}

/// `--values`: the Texel local search over every value, written as JSON.
fn run_values(args: &Args, text: &str) -> ExitCode {
    let start: Weights = match args.start.as_str() {
        "tuned" => TUNED.w,
        path => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Weights>(&t).map_err(|e| e.to_string()))
        {
            Ok(w) => w,
            Err(e) => {
                eprintln!("sparring tune: --start {path}: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let Some(out) = &args.out else {
        eprintln!("sparring tune: --values needs --out FILE.json");
        return ExitCode::from(2);
    };
    let (positions, skipped) = load_positions(text);
    if positions.len() < 1000 {
        eprintln!("sparring tune: only {} usable positions ({skipped} left out); need at least 1000", positions.len());
        return ExitCode::from(2);
    }
    let train: Vec<&texel::Position> =
        positions.iter().enumerate().filter(|(i, _)| i % 5 != 0).map(|(_, s)| s).collect();
    let held: Vec<&texel::Position> =
        positions.iter().enumerate().filter(|(i, _)| i % 5 == 0).map(|(_, s)| s).collect();
    println!(
        "{} positions ({} train, {} held out; {skipped} lines left out)",
        positions.len(),
        train.len(),
        held.len()
    );
    let anchors: Vec<&str> = args.anchors.iter().map(String::as_str).filter(|a| !a.is_empty()).collect();
    println!("anchored (never moved): {}", if anchors.is_empty() { "nothing".to_string() } else { anchors.join(", ") });
    let opts =
        texel::FitOptions { anchors: &anchors, alpha: args.alpha, max_passes: args.passes, minutes: args.minutes };
    let o = texel::fit(&train, &held, &start, &opts, &mut |line| println!("{line}"));
    let mut weights = o.weights;
    if args.keep_scale {
        let before = texel::fit_alpha(&train, &sparring::eval::Params::new(0, start));
        let (w, f) = texel::keep_scale(&train, &weights, before);
        let after = texel::fit_alpha(&train, &sparring::eval::Params::new(0, w));
        println!("keep scale: x {f:.4} (starting values' alpha {before:.4}; fitted alpha now {after:.4})");
        weights = w;
    }
    let json = serde_json::to_string_pretty(&weights).expect("weights serialise");
    if let Err(e) = std::fs::write(out, json + "\n") {
        eprintln!("sparring tune: {}: {e}", out.display());
        return ExitCode::from(2);
    }
    println!(
        "{} passes, {} values changed; alpha {:.4}; loss x 1e4: train {:.4} -> {:.4}, held out {:.4} -> {:.4}; wrote {}",
        o.passes,
        o.changed,
        o.alpha,
        1e4 * o.train_before,
        1e4 * o.train_after,
        1e4 * o.held_before,
        1e4 * o.held_after,
        out.display()
    );
    ExitCode::SUCCESS
}
