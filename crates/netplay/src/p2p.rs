//! Two peers playing the pinball table over GGRS on loopback UDP, each in its own thread,
//! through [`LossySocket`]s with a simulated latency and packet loss.

use crate::{Game, LossySocket, NetConditions, NetplayConfig, NetplayError, PlayerInput};
use ggrs::{
    DesyncDetection, Frame, GgrsError, GgrsEvent, PlayerType, SessionBuilder, SessionState,
};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The settings of [`run_two_peers`].
#[derive(Clone, Debug)]
pub struct P2pOptions {
    /// The frames of scripted inputs; a peer is done once GGRS has confirmed this frame.
    pub frames: Frame,
    /// Each peer's simulated network (applied to the packets it receives).
    pub conditions: [NetConditions; 2],
    /// The frame rate both peers run at, frames per second.
    pub fps: usize,
    /// GGRS's input delay, frames.
    pub input_delay: usize,
    /// The interval of GGRS's desync detection, frames (> 0).
    pub desync_interval: u32,
    /// The wall-clock time after which a peer gives up with [`NetplayError::Timeout`].
    pub timeout: Duration,
}

impl Default for P2pOptions {
    /// 1000 frames at 60 fps, 60-120 ms latency and 5 % dropped packets each way, 2 frames of
    /// input delay, a desync check every 10 frames, 60 s time limit.
    fn default() -> Self {
        let net = |seed| NetConditions {
            latency_ms: (60, 120),
            drop_rate: 0.05,
            seed,
        };
        Self {
            frames: 1000,
            conditions: [net(1), net(2)],
            fps: 60,
            input_delay: 2,
            desync_interval: 10,
            timeout: Duration::from_secs(60),
        }
    }
}

/// What one peer reports at the end of [`run_two_peers`].
#[derive(Clone, Debug, PartialEq)]
pub struct PeerReport {
    /// The peer's index (0 or 1; it owns player `peer`'s flipper).
    pub peer: usize,
    /// The world's state hash after [`P2pOptions::frames`] steps (a confirmed frame).
    pub hash: u64,
    /// The frame the peer had simulated when it stopped.
    pub frame: Frame,
    /// The last frame GGRS had confirmed (both players' inputs known).
    pub confirmed_frame: Frame,
    /// How many times GGRS rolled the peer back.
    pub rollbacks: u64,
    /// The packets the peer's simulated network dropped.
    pub dropped: u64,
    /// The wall-clock run time of the peer, seconds.
    pub seconds: f64,
}

/// Player `player`'s scripted input at `frame`: the flipper held for 12 frames in every 45
/// (player 1 shifted by 20 frames), the same on both peers.
#[must_use]
pub fn scripted_input(player: usize, frame: Frame) -> PlayerInput {
    let shift: Frame = if player == 0 { 0 } else { 20 };
    PlayerInput::flipper((frame + shift).rem_euclid(45) < 12)
}

/// Runs two peers on `127.0.0.1` in two threads until both have confirmed
/// [`P2pOptions::frames`], and returns their reports (peer 0, peer 1).
///
/// # Errors
/// The first peer's error: [`NetplayError::Desync`] if GGRS detects a desync,
/// [`NetplayError::Timeout`] past [`P2pOptions::timeout`], [`NetplayError::PeerStopped`] if
/// the other peer stopped on an error first, [`NetplayError::Io`] if a socket
/// fails to bind, [`NetplayError::Ggrs`] for a session error.
pub fn run_two_peers(opts: &P2pOptions) -> Result<[PeerReport; 2], NetplayError> {
    let sockets = [
        LossySocket::bind_loopback(opts.conditions[0].clone())?,
        LossySocket::bind_loopback(opts.conditions[1].clone())?,
    ];
    let addrs = [sockets[0].local_addr()?, sockets[1].local_addr()?];
    let done = [AtomicBool::new(false), AtomicBool::new(false)];
    let [s0, s1] = sockets;
    let (r0, r1) = std::thread::scope(|scope| {
        let done = &done;
        let h0 = scope.spawn(move || run_peer(0, s0, addrs[1], opts, done));
        let h1 = scope.spawn(move || run_peer(1, s1, addrs[0], opts, done));
        (h0.join(), h1.join())
    });
    let r0 = r0.unwrap_or(Err(NetplayError::Panicked(0)));
    let r1 = r1.unwrap_or(Err(NetplayError::Panicked(1)));
    match (r0, r1) {
        (Ok(a), Ok(b)) => Ok([a, b]),
        // The cause rather than its consequence on the other peer.
        (Err(NetplayError::PeerStopped { .. }), Err(e)) | (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

/// One peer's loop: polls the network, advances at `opts.fps` with its scripted input, stops
/// once both peers are done (or on an error; it then marks itself done so the other stops).
fn run_peer(
    peer: usize,
    socket: LossySocket,
    remote: SocketAddr,
    opts: &P2pOptions,
    done: &[AtomicBool; 2],
) -> Result<PeerReport, NetplayError> {
    let result = peer_loop(peer, socket, remote, opts, done);
    done[peer].store(true, Ordering::SeqCst);
    result
}

fn peer_loop(
    peer: usize,
    socket: LossySocket,
    remote: SocketAddr,
    opts: &P2pOptions,
    done: &[AtomicBool; 2],
) -> Result<PeerReport, NetplayError> {
    let dropped = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let socket = CountingSocket {
        inner: socket,
        dropped: dropped.clone(),
    };
    let mut session = SessionBuilder::<NetplayConfig>::new()
        .with_num_players(2)?
        .with_fps(opts.fps)?
        .with_input_delay(opts.input_delay)
        .with_desync_detection_mode(DesyncDetection::On {
            interval: opts.desync_interval,
        })
        .add_player(PlayerType::Local, peer)?
        .add_player(PlayerType::Remote(remote), 1 - peer)?
        .start_p2p_session(socket)?;
    let mut game = Game::pinball()?;
    let start = Instant::now();
    let frame_time = Duration::from_secs_f64(1.0 / opts.fps as f64);
    let mut next = start;
    loop {
        if start.elapsed() > opts.timeout {
            return Err(NetplayError::Timeout {
                peer,
                seconds: opts.timeout.as_secs(),
                frame: game.frame(),
            });
        }
        session.poll_remote_clients();
        for event in session.events() {
            if let GgrsEvent::DesyncDetected {
                frame,
                local_checksum,
                remote_checksum,
                ..
            } = event
            {
                return Err(NetplayError::Desync {
                    frame,
                    local: local_checksum,
                    remote: remote_checksum,
                });
            }
        }
        if session.confirmed_frame() >= opts.frames {
            done[peer].store(true, Ordering::SeqCst);
        }
        if done.iter().all(|d| d.load(Ordering::SeqCst)) {
            break;
        }
        let now = Instant::now();
        if now < next {
            std::thread::sleep((next - now).min(Duration::from_millis(2)));
            continue;
        }
        next += frame_time;
        if session.current_state() != SessionState::Running {
            continue;
        }
        let frame = session.current_frame();
        let input = if frame < opts.frames {
            scripted_input(peer, frame)
        } else {
            PlayerInput::default()
        };
        session.add_local_input(peer, input)?;
        match session.advance_frame() {
            Ok(requests) => game.handle_requests(requests)?,
            // The other peer is too far behind: wait for its inputs, skip this tick.
            Err(GgrsError::PredictionThreshold) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if session.confirmed_frame() < opts.frames {
        return Err(NetplayError::PeerStopped {
            peer,
            frame: session.confirmed_frame(),
        });
    }
    let hash = game.hash_at(opts.frames).ok_or(NetplayError::PeerStopped {
        peer,
        frame: game.frame(),
    })?;
    Ok(PeerReport {
        peer,
        hash,
        frame: game.frame(),
        confirmed_frame: session.confirmed_frame(),
        rollbacks: game.rollbacks(),
        dropped: dropped.load(Ordering::SeqCst),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A [`LossySocket`] that publishes its drop count (the session owns the socket).
struct CountingSocket {
    inner: LossySocket,
    dropped: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl ggrs::NonBlockingSocket<SocketAddr> for CountingSocket {
    fn send_to(&mut self, msg: &ggrs::Message, addr: &SocketAddr) {
        self.inner.send_to(msg, addr);
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, ggrs::Message)> {
        let out = self.inner.receive_all_messages();
        self.dropped.store(self.inner.dropped(), Ordering::SeqCst);
        out
    }
}
