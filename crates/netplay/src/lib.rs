//! A rollback netcode example of collide over [GGRS](https://github.com/gschup/ggrs): the
//! built-in pinball table for two players, player 0 holding the left flipper's button and
//! player 1 the right one's.
//!
//! GGRS asks the game to save its state ([`ggrs::GgrsRequest::SaveGameState`]), to load a saved
//! state ([`ggrs::GgrsRequest::LoadGameState`]) and to advance one frame with both players'
//! inputs ([`ggrs::GgrsRequest::AdvanceFrame`]); [`Game::handle_requests`] answers them with
//! [`collide_world::World::snapshot`], [`collide_world::World::restore`] and one fixed
//! [`collide_world::World::step`], and gives GGRS [`collide_world::World::state_hash`] as the
//! checksum of every saved frame. Wall-clock time and audio stay out of the state: a frame is
//! one step of the scene's fixed `dt`, whatever the time between frames.
//!
//! [`p2p`] runs two peers on loopback UDP sockets through [`LossySocket`], which adds a seeded,
//! simulated latency and packet loss.
//!
//! This crate depends on collide-world's public API (and the built-in scenes); collide-world
//! must never depend on GGRS or on this crate.

mod game;
pub mod p2p;
mod socket;

pub use game::{Game, GameState, NetplayConfig, PlayerInput};
pub use socket::{LossySocket, NetConditions};

/// The errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum NetplayError {
    /// The built-in scene `name` is missing from collide-scenes.
    #[error("no built-in scene named `{0}`")]
    NoSuchScene(String),
    /// The scene failed to load.
    #[error("scene: {0}")]
    Scene(#[from] collide_scenes::SceneError),
    /// The world refused the scene or an input (e.g. a stale flipper id).
    #[error("world: {0}")]
    World(#[from] collide_world::WorldError),
    /// A saved state failed to restore.
    #[error("snapshot: {0}")]
    Snapshot(#[from] collide_world::SnapshotError),
    /// The scene has fewer than two flippers (one per player).
    #[error("the scene has {0} flippers, two players need 2")]
    TooFewFlippers(usize),
    /// GGRS asked to load a frame that was never saved.
    #[error("GGRS asked to load frame {0}, which holds no saved state")]
    EmptyCell(ggrs::Frame),
    /// A GGRS session error (e.g. a sync test's mismatched checksum).
    #[error("ggrs: {0}")]
    Ggrs(#[from] ggrs::GgrsError),
    /// A socket error (binding or reading the local address).
    #[error("socket: {0}")]
    Io(#[from] std::io::Error),
    /// GGRS reported that the peers' checksums differ at `frame`.
    #[error("desync at frame {frame}: local checksum {local:#x}, remote {remote:#x}")]
    Desync {
        /// The frame whose checksums differ.
        frame: ggrs::Frame,
        /// This peer's checksum.
        local: u128,
        /// The other peer's checksum.
        remote: u128,
    },
    /// A peer did not finish within the time limit (seconds).
    #[error("peer {peer} did not finish within {seconds} s (at frame {frame})")]
    Timeout {
        /// The peer's index (0 or 1).
        peer: usize,
        /// The time limit, seconds.
        seconds: u64,
        /// The peer's current frame when it gave up.
        frame: ggrs::Frame,
    },
    /// Peer `peer` stopped before confirming the last frame because the other peer stopped
    /// (on an error of its own).
    #[error("peer {peer} stopped at confirmed frame {frame}: the other peer stopped first")]
    PeerStopped {
        /// The peer's index (0 or 1).
        peer: usize,
        /// Its last confirmed frame.
        frame: ggrs::Frame,
    },
    /// A peer's thread panicked.
    #[error("peer thread {0} panicked")]
    Panicked(usize),
}
