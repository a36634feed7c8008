//! Text forms of moves and positions: UCI move text (standard castling, `e1g1`) and FEN.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move};

/// UCI text of a move, standard castling notation (`e1g1`).
pub fn uci(m: Move) -> String {
    UciMove::from_move(m, CastlingMode::Standard).to_string()
}

/// A line of moves in UCI text, separated by spaces.
pub fn uci_line(moves: &[Move]) -> String {
    moves.iter().map(|&m| uci(m)).collect::<Vec<_>>().join(" ")
}

/// Parses a UCI move (standard or king-takes-rook castling) that must be legal in `pos`.
pub fn parse_uci(pos: &Chess, text: &str) -> Result<Move, String> {
    let u: UciMove = text.trim().parse().map_err(|_| format!("bad UCI move '{text}'"))?;
    u.to_move(pos).map_err(|_| format!("illegal move '{text}' in {}", fen(pos)))
}

/// Full FEN of a position (en passant square only when a capture is legal).
pub fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn round_trips() {
        let pos = Chess::default();
        assert_eq!(fen(&pos), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let m = parse_uci(&pos, "g1f3").unwrap();
        assert_eq!(uci(m), "g1f3");
        assert!(parse_uci(&pos, "e2e5").unwrap_err().contains("illegal"));
        assert!(parse_uci(&pos, "zz").unwrap_err().contains("bad UCI"));
        let castle = crate::board::parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let m = parse_uci(&castle, "e1h1").unwrap();
        assert_eq!(uci(m), "e1g1");
        let moves: Vec<Move> = castle.legal_moves().into_iter().take(2).collect();
        assert_eq!(uci_line(&moves).split(' ').count(), 2);
    }
}
