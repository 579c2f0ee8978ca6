//! A UDP socket on 127.0.0.1 for GGRS with a simulated network: seeded latency and losses.

use ggrs::{Message, NonBlockingSocket};
use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

/// The simulated network of a [`LossySocket`]: each received packet is dropped with
/// probability `drop_rate`, or else delivered after a latency drawn uniformly in
/// `latency_ms` (milliseconds), from a random number generator seeded with `seed`.
#[derive(Clone, Debug, PartialEq)]
pub struct NetConditions {
    /// The one-way latency range, milliseconds (inclusive).
    pub latency_ms: (u64, u64),
    /// The fraction of received packets dropped, in `[0, 1]`.
    pub drop_rate: f64,
    /// The seed of the drops and latencies.
    pub seed: u64,
}

/// A non-blocking UDP socket bound to `127.0.0.1` that holds back each received packet for a
/// simulated latency and drops some (see [`NetConditions`]). Messages are encoded with bincode,
/// as GGRS's own [`ggrs::UdpNonBlockingSocket`] does; undecodable packets are ignored (UDP
/// carries no guarantee, GGRS resends what is lost).
#[derive(Debug)]
pub struct LossySocket {
    socket: UdpSocket,
    conditions: NetConditions,
    rng: fastrand::Rng,
    pending: VecDeque<(Instant, SocketAddr, Message)>,
    buffer: Vec<u8>,
    dropped: u64,
}

impl LossySocket {
    /// Binds a socket to `127.0.0.1` on a port the system picks.
    ///
    /// # Errors
    /// The [`std::io::Error`] of binding or of making the socket non-blocking.
    pub fn bind_loopback(conditions: NetConditions) -> Result<Self, std::io::Error> {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0))?;
        socket.set_nonblocking(true)?;
        Ok(Self {
            socket,
            rng: fastrand::Rng::with_seed(conditions.seed),
            conditions,
            pending: VecDeque::new(),
            buffer: vec![0; 65_536],
            dropped: 0,
        })
    }

    /// The socket's local address (`127.0.0.1:port`).
    ///
    /// # Errors
    /// The [`std::io::Error`] of reading it.
    pub fn local_addr(&self) -> Result<SocketAddr, std::io::Error> {
        self.socket.local_addr()
    }

    /// How many received packets the simulated network dropped so far.
    #[must_use]
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

impl NonBlockingSocket<SocketAddr> for LossySocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        // A failed encode or send is a lost packet, which GGRS's protocol recovers from.
        if let Ok(bytes) = bincode::serialize(msg) {
            let _ = self.socket.send_to(&bytes, addr);
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let now = Instant::now();
        while let Ok((n, from)) = self.socket.recv_from(&mut self.buffer) {
            if self.rng.f64() < self.conditions.drop_rate {
                self.dropped += 1;
                continue;
            }
            let (lo, hi) = self.conditions.latency_ms;
            let delay = Duration::from_millis(self.rng.u64(lo..=hi.max(lo)));
            if let Ok(msg) = bincode::deserialize::<Message>(&self.buffer[..n]) {
                self.pending.push_back((now + delay, from, msg));
            }
        }
        let mut ready = Vec::new();
        let mut later = VecDeque::with_capacity(self.pending.len());
        for (due, from, msg) in self.pending.drain(..) {
            if due <= now {
                ready.push((from, msg));
            } else {
                later.push_back((due, from, msg));
            }
        }
        self.pending = later;
        ready
    }
}
