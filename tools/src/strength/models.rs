//! The named models of `--model`: `v3` (estimator v3: the v2 game model's score and the side's
//! likelihood under Maia-3 over a rating grid, fitted on FICS blitz), `v3-fide` (the same fitted on
//! FIDE-rated players' online games), `game` (v2, `game_model.rs`, fitted on FICS blitz), `fide`
//! (v2 fitted on FIDE-rated players' online games), `refit` (the per-game ASE line refitted on FICS
//! blitz, `calibration/strength-model.json`), `pawnbook` (the seed document's coefficients and
//! definitions exactly), or a JSON file of either kind. [`DEFAULT`] is the default.

use super::game_model::{self, GameModel};
use super::model::StrengthModel;
use std::path::Path;

/// A loaded model.
#[derive(Clone, Debug)]
pub enum Model {
    /// The scaled-error line: `pawnbook`, `refit` or such a file.
    Ase(StrengthModel),
    Game(GameModel),
}

/// The model `sparring strength` uses without `--model`.
pub const DEFAULT: &str = "v3";
/// Every name `--model` knows, the default first.
pub const NAMES: [&str; 6] = ["v3", "v3-fide", "game", "fide", "refit", "pawnbook"];

impl Model {
    /// A name of [`NAMES`] or a path to a model file (the file's `format` says which kind).
    pub fn named(name: &str) -> Result<(Model, String), String> {
        match name {
            "v3" => Ok((Model::Game(GameModel::shipped_v3()), "v3 (shipped)".into())),
            "v3-fide" => Ok((Model::Game(GameModel::shipped_v3_fide()), "v3-fide (shipped)".into())),
            "game" => Ok((Model::Game(GameModel::shipped()), "game (shipped)".into())),
            "fide" => Ok((Model::Game(GameModel::shipped_fide()), "fide (shipped)".into())),
            "refit" => Ok((Model::Ase(StrengthModel::shipped()), "refit (shipped)".into())),
            "pawnbook" => Ok((Model::Ase(StrengthModel::pawnbook()), "pawnbook".into())),
            path => {
                let text = std::fs::read_to_string(Path::new(path)).map_err(|e| {
                    format!("--model {path}: not a model name ({}) and not a readable file: {e}", NAMES.join(", "))
                })?;
                let value: serde_json::Value =
                    serde_json::from_str(&text).map_err(|e| format!("--model {path}: bad JSON: {e}"))?;
                if value.get("format").and_then(|f| f.as_str()) == Some(game_model::FORMAT) {
                    Ok((Model::Game(GameModel::from_json(&text).map_err(|e| format!("{path}: {e}"))?), path.into()))
                } else {
                    Ok((Model::Ase(StrengthModel::from_json(&text).map_err(|e| format!("{path}: {e}"))?), path.into()))
                }
            }
        }
    }

    /// (oracle, depth, nodes, pairing) the model was fitted with.
    pub fn oracle_record(&self) -> (&str, Option<i32>, Option<u64>, &str) {
        match self {
            Model::Ase(m) => (&m.oracle, m.depth, m.nodes, &m.pairing),
            Model::Game(m) => (&m.oracle, m.depth, m.nodes, &m.pairing),
        }
    }

    /// The oracle fingerprint recorded for the internal oracle.
    pub fn fingerprint(&self) -> Option<&str> {
        match self {
            Model::Ase(m) => m.oracle_fingerprint.as_deref(),
            Model::Game(m) => m.oracle_fingerprint.as_deref(),
        }
    }

    /// The ASE line the per-ply analysis reports beside any model (the game model's analysis
    /// still prints each side's scaled error).
    pub fn ase_line(&self) -> StrengthModel {
        match self {
            Model::Ase(m) => m.clone(),
            Model::Game(_) => StrengthModel::shipped(),
        }
    }

    /// A warning when the run's oracle differs from the one the model was fitted with.
    pub fn oracle_mismatch(
        &self,
        oracle: &str,
        depth: Option<i32>,
        nodes: Option<u64>,
        pairing: &str,
        fingerprint: Option<&str>,
    ) -> Option<String> {
        match self {
            Model::Ase(m) => m.oracle_mismatch(oracle, depth, nodes, pairing, fingerprint),
            Model::Game(m) => {
                let mut t = StrengthModel::pawnbook();
                t.oracle = m.oracle.clone();
                t.depth = m.depth;
                t.nodes = m.nodes;
                t.pairing = m.pairing.clone();
                t.oracle_fingerprint = m.oracle_fingerprint.clone();
                t.oracle_mismatch(oracle, depth, nodes, pairing, fingerprint)
            }
        }
    }
}
