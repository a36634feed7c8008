//! The named models of `--model`: `game` (the default, `game_model.rs`, fitted on FICS blitz),
//! `fide` (the same model fitted on FIDE-rated players' online games), `refit` (the per-game ASE
//! line refitted on FICS blitz, `calibration/strength-model.json`), `pawnbook` (the seed
//! document's coefficients and definitions exactly), or a JSON file of either kind.

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

impl Model {
    /// `game`, `fide`, `refit`, `pawnbook` or a path to a model file (the file's `format` says which kind).
    pub fn named(name: &str) -> Result<(Model, String), String> {
        match name {
            "game" => Ok((Model::Game(GameModel::shipped()), "game (shipped)".into())),
            "fide" => Ok((Model::Game(GameModel::shipped_fide()), "fide (shipped)".into())),
            "refit" => Ok((Model::Ase(StrengthModel::shipped()), "refit (shipped)".into())),
            "pawnbook" => Ok((Model::Ase(StrengthModel::pawnbook()), "pawnbook".into())),
            path => {
                let text = std::fs::read_to_string(Path::new(path)).map_err(|e| {
                    format!(
                        "--model {path}: not a model name (game, fide, refit, pawnbook) and not a readable file: {e}"
                    )
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
