//! The UCI text the engine sends, below both the engine and the front-end: the engine thread
//! and the front-end hand typed [`Event`]s to the one [`Output`], which formats and writes them.

mod event;
pub mod format;
mod output;
mod transcript;

pub use event::Event;
#[cfg(test)]
pub use output::Captured;
pub use output::Output;
pub use transcript::Transcript;
