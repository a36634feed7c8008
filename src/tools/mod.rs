//! Building blocks shared by the tools (`arena`, `estimate`, `humanlike`): one UCI engine-process
//! driver and one `info` parser, one oracle module, one move-quality module and small numeric
//! helpers. Nothing here is part of the engine's own move path.

pub mod games;
pub mod info;
pub mod optimize;
pub mod oracle;
pub mod process;
pub mod quality;
pub mod scored;
