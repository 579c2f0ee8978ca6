//! The game state GGRS saves and loads, the players' inputs and the request handler.

use crate::NetplayError;
use collide_world::{FlipperId, Snapshot, World};
use ggrs::{Config, Frame, GgrsRequest, PredictRepeatLast};
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;

/// One player's input for one frame, as bits (the only game data sent over the network).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInput {
    /// Bit 0 ([`PlayerInput::FLIPPER`]): the player's flipper button is held.
    pub bits: u8,
}

impl PlayerInput {
    /// The flipper button bit.
    pub const FLIPPER: u8 = 1;

    /// An input with the flipper button held (`true`) or released.
    #[must_use]
    pub fn flipper(held: bool) -> Self {
        Self {
            bits: u8::from(held) * Self::FLIPPER,
        }
    }

    /// Whether the flipper button is held.
    #[must_use]
    pub fn flipper_held(self) -> bool {
        self.bits & Self::FLIPPER != 0
    }
}

/// The GGRS configuration of the example: [`PlayerInput`]s, [`GameState`]s, peers addressed by
/// UDP socket address, a late input predicted as the player's last one.
#[derive(Debug)]
pub struct NetplayConfig;

impl Config for NetplayConfig {
    type Input = PlayerInput;
    type InputPredictor = PredictRepeatLast;
    type State = GameState;
    type Address = SocketAddr;
}

/// A saved frame: the frame number and the world's snapshot (no wall-clock time, no audio).
#[derive(Clone, Debug)]
pub struct GameState {
    /// The frame this state is the start of (0 = the scene as loaded).
    pub frame: Frame,
    /// The world's whole simulated state.
    pub snapshot: Snapshot,
}

/// The pinball table for two players: player 0 owns the left flipper, player 1 the right one.
#[derive(Debug)]
pub struct Game {
    world: World,
    flippers: [FlipperId; 2],
    frame: Frame,
    rollbacks: u64,
    hashes: Vec<u64>,
}

impl Game {
    /// The built-in `pinball` scene at frame 0, its first two flippers (in scene order: left,
    /// right) owned by players 0 and 1.
    ///
    /// # Errors
    /// [`NetplayError::NoSuchScene`], [`NetplayError::Scene`] or [`NetplayError::World`] if the
    /// scene does not load, [`NetplayError::TooFewFlippers`] if it has fewer than two flippers.
    pub fn pinball() -> Result<Self, NetplayError> {
        let scene = collide_scenes::load("pinball")
            .ok_or_else(|| NetplayError::NoSuchScene("pinball".into()))??;
        let world = World::from_scene(&scene)?;
        let fl = world.flippers();
        if fl.len() < 2 {
            return Err(NetplayError::TooFewFlippers(fl.len()));
        }
        let flippers = [fl[0].id, fl[1].id];
        Ok(Self {
            world,
            flippers,
            frame: 0,
            rollbacks: 0,
            hashes: Vec::new(),
        })
    }

    /// The world (read only).
    #[must_use]
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The current frame: the number of frames simulated since the start, after rollbacks.
    #[must_use]
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// How many times GGRS loaded an earlier state (rolled back).
    #[must_use]
    pub fn rollbacks(&self) -> u64 {
        self.rollbacks
    }

    /// The world's state hash at the start of `frame` (after `frame` steps), as last simulated;
    /// final once GGRS has confirmed the frame. `None` for a frame not simulated yet.
    #[must_use]
    pub fn hash_at(&self, frame: Frame) -> Option<u64> {
        let i = usize::try_from(frame).ok()?;
        if i == 0 {
            return None;
        }
        self.hashes.get(i - 1).copied()
    }

    /// Answers GGRS's requests, in order: save (snapshot and state hash as checksum), load
    /// (restore; counts a rollback), advance (both players' flipper buttons, then one step).
    ///
    /// # Errors
    /// [`NetplayError::EmptyCell`] if GGRS asks to load a frame never saved,
    /// [`NetplayError::Snapshot`] if a snapshot does not restore, [`NetplayError::World`] if a
    /// flipper id is stale.
    pub fn handle_requests(
        &mut self,
        requests: Vec<GgrsRequest<NetplayConfig>>,
    ) -> Result<(), NetplayError> {
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    debug_assert_eq!(frame, self.frame);
                    let state = GameState {
                        frame: self.frame,
                        snapshot: self.world.snapshot(),
                    };
                    let checksum = u128::from(self.world.state_hash());
                    cell.save(frame, Some(state), Some(checksum));
                }
                GgrsRequest::LoadGameState { cell, frame } => {
                    let state = cell.load().ok_or(NetplayError::EmptyCell(frame))?;
                    self.world.restore(&state.snapshot)?;
                    self.frame = state.frame;
                    self.rollbacks += 1;
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    for (id, (input, _status)) in self.flippers.iter().zip(&inputs) {
                        self.world.set_flipper_pressed(*id, input.flipper_held())?;
                    }
                    self.world.step();
                    self.frame += 1;
                    let i = usize::try_from(self.frame - 1).unwrap_or(0);
                    self.hashes.truncate(i);
                    self.hashes.push(self.world.state_hash());
                }
            }
        }
        Ok(())
    }
}
