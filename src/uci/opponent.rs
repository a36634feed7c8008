//! The `UCI_Opponent` option (UCI 2006: GUIs and bot bridges send who the engine plays):
//!
//! ```text
//! setoption name UCI_Opponent value <title|none> <rating|none> <computer|human> <name>
//! setoption name UCI_Opponent value GM 2800 human Gary Kasparov
//! setoption name UCI_Opponent value none none computer Shredder
//! ```
//!
//! The title is one of GM, IM, FM, CM, NM, WGM, WIM, WFM, WCM, LM, BOT (any case) or `none`; the
//! rating a whole number 0..=4000 or `none`; the name is the rest of the line (spaces kept, may be
//! empty). An empty value (or `<empty>`) forgets the opponent. Anything else is refused with the
//! reason, and the opponent set before stays. A known rating is read on `UCI_Elo`'s scale and
//! becomes the opponent input of the human move model v7 through the ladder's rating map
//! ([`crate::profile::Ladder::model_rating`]).

/// Titles the option accepts.
pub const TITLES: [&str; 11] = ["GM", "IM", "FM", "CM", "NM", "WGM", "WIM", "WFM", "WCM", "LM", "BOT"];
/// The highest rating accepted.
pub const MAX_RATING: u32 = 4000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// Upper case; None for `none`.
    pub title: Option<String>,
    pub rating: Option<u32>,
    pub computer: bool,
    pub name: String,
}

/// Parses the option's value: Ok(None) forgets the opponent.
pub fn parse(value: &str) -> Result<Option<Opponent>, String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return Ok(None);
    }
    let mut rest = value;
    let mut field = |what: &str| {
        let t = rest.trim_start();
        let end = t.find(char::is_whitespace).unwrap_or(t.len());
        rest = &t[end..];
        Some(&t[..end]).filter(|w| !w.is_empty()).ok_or_else(|| {
            format!(
                "UCI_Opponent '{value}': missing {what} (expected <title|none> <rating|none> <computer|human> <name>)"
            )
        })
    };
    let title = field("title")?;
    let rating = field("rating")?;
    let kind = field("computer or human")?;
    let name = rest.trim().to_string();
    let title = if title.eq_ignore_ascii_case("none") {
        None
    } else {
        let t = title.to_ascii_uppercase();
        if !TITLES.contains(&t.as_str()) {
            return Err(format!("UCI_Opponent: unknown title '{title}' (one of {} or none)", TITLES.join(", ")));
        }
        Some(t)
    };
    let rating = if rating.eq_ignore_ascii_case("none") {
        None
    } else {
        match rating.parse::<u32>() {
            Ok(r) if r <= MAX_RATING => Some(r),
            _ => return Err(format!("UCI_Opponent: rating '{rating}' is not a whole number 0..={MAX_RATING} or none")),
        }
    };
    let computer = match kind.to_ascii_lowercase().as_str() {
        "computer" => true,
        "human" => false,
        _ => return Err(format!("UCI_Opponent: '{kind}' must be computer or human")),
    };
    Ok(Some(Opponent { title, rating, computer, name }))
}

impl Opponent {
    /// The opponent's rating as sent (taken on `UCI_Elo`'s scale).
    pub fn rating(&self) -> Option<u32> {
        self.rating
    }

    /// One line for `info string`.
    pub fn describe(&self) -> String {
        format!(
            "opponent {}{} ({}){}",
            self.title.as_ref().map(|t| format!("{t} ")).unwrap_or_default(),
            if self.name.is_empty() { "(no name)" } else { &self.name },
            if self.computer { "computer" } else { "human" },
            self.rating.map(|r| format!(", rated {r}")).unwrap_or_else(|| ", rating unknown".into())
        )
    }
}
