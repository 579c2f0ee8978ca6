//! A colour per ball, kept by the game (the world has no colours): billiard balls swap their
//! colours when they collide.

use collide_world::BallId;

/// An 8-bit sRGB colour `[r, g, b]`.
pub type Rgb8 = [u8; 3];

/// The palette of the sandbox scenes' balls, given in the world's storage order at load.
pub const PALETTE: [Rgb8; 12] = [
    [240, 70, 60],
    [250, 200, 40],
    [60, 200, 90],
    [60, 150, 250],
    [220, 90, 230],
    [250, 140, 40],
    [40, 220, 220],
    [245, 245, 245],
    [160, 110, 250],
    [150, 220, 60],
    [250, 120, 170],
    [120, 180, 200],
];

/// Colours by ball id: a slot per id index holding the generation it was set for, so a stale
/// id never reads another ball's colour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BallColors {
    slots: Vec<Option<(u32, Rgb8)>>,
}

impl BallColors {
    /// No colours.
    #[must_use]
    pub fn new() -> Self {
        BallColors::default()
    }

    /// The colour of `id`, or `None` (the renderer's default colour).
    #[must_use]
    pub fn get(&self, id: BallId) -> Option<Rgb8> {
        match self.slots.get(id.index() as usize) {
            Some(Some((generation, c))) if *generation == id.generation() => Some(*c),
            _ => None,
        }
    }

    /// Sets the colour of `id`.
    pub fn set(&mut self, id: BallId, c: Rgb8) {
        let i = id.index() as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, None);
        }
        self.slots[i] = Some((id.generation(), c));
    }

    /// Forgets the colour of `id`.
    pub fn remove(&mut self, id: BallId) {
        if self.get(id).is_some() {
            self.slots[id.index() as usize] = None;
        }
    }

    /// Swaps the colours of `a` and `b` (a ball with no colour gives the other none).
    pub fn swap(&mut self, a: BallId, b: BallId) {
        let (ca, cb) = (self.get(a), self.get(b));
        match cb {
            Some(c) => self.set(a, c),
            None => self.remove(a),
        }
        match ca {
            Some(c) => self.set(b, c),
            None => self.remove(b),
        }
    }

    /// Forgets every colour.
    pub fn clear(&mut self) {
        self.slots.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_ids_have_no_colour_and_swap_swaps() {
        let a = BallId::from_bits(0);
        let b = BallId::from_bits(1);
        let a2 = BallId::from_bits(1 << 32); // slot 0, generation 1
        let mut c = BallColors::new();
        c.set(a, PALETTE[0]);
        c.set(b, PALETTE[1]);
        assert_eq!(c.get(a2), None);
        c.swap(a, b);
        assert_eq!((c.get(a), c.get(b)), (Some(PALETTE[1]), Some(PALETTE[0])));
        c.remove(a2); // stale: no effect
        assert_eq!(c.get(a), Some(PALETTE[1]));
        c.remove(a);
        c.swap(a, b);
        assert_eq!((c.get(a), c.get(b)), (Some(PALETTE[0]), None));
    }
}
