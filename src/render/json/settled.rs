//! `sync`'s settling of the claims made offline, as JSON (SPEC section 10).

use serde::Serialize;

/// What `sync` settled of the claims made offline (SPEC section 10).
#[derive(Serialize)]
pub struct SettledV1 {
    pub confirmed: Vec<SettledClaimV1>,
    pub lost: Vec<SettledClaimV1>,
    /// The sessions on disk whose file was behind the store and took its newest state.
    pub caught_up: Vec<String>,
}

#[derive(Serialize)]
pub struct SettledClaimV1 {
    pub key: String,
    pub task: String,
    /// For a lost claim: the holder whose claim reached the remote first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

pub fn settled(s: &crate::facts::settled::Settled) -> SettledV1 {
    SettledV1 {
        confirmed: s
            .confirmed
            .iter()
            .map(|(key, task)| SettledClaimV1 {
                key: key.clone(),
                task: task.clone(),
                winner: None,
            })
            .collect(),
        lost: s
            .lost
            .iter()
            .map(|(key, task, winner)| SettledClaimV1 {
                key: key.clone(),
                task: task.clone(),
                winner: Some(winner.clone()),
            })
            .collect(),
        caught_up: s.caught_up.clone(),
    }
}
