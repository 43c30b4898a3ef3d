//! What `sync` settled of the claims made while the remote could not be reached (SPEC
//! section 10): confirmed, or lost to another clone's claim that reached it first.

/// (session key, task) confirmed, and (key, task, winner) lost.
#[derive(Debug, Default)]
pub struct Settled {
    pub confirmed: Vec<(String, String)>,
    pub lost: Vec<(String, String, String)>,
    /// The sessions on disk whose file was behind the store's newest record (another
    /// clone's writes, a claim among them) and took it (keys).
    pub caught_up: Vec<String>,
}
