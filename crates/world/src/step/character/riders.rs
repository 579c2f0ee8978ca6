//! Characters standing on characters (*riders*, whose ground is [`Target::Character`]): the
//! order in which the step moves the characters, and the carry of a rider by the character
//! under it.
//!
//! Characters move one by one, each meeting the others as immovable boxes where they are at
//! that moment (`crate::step::character`). A rider moves after the character it stands on
//! (its *carrier*), and first moves by the carrier's displacement in the step, as a character
//! on a kinematic rectangle is carried by the rectangle's: along the carrier's top, sliding
//! along what else it meets (stopped, not pushed through; never into the carrier). Its own
//! motion follows. A carrier cannot move into its rider: a character with another on its
//! head meets it as a ceiling (it cannot jump or be lifted through it).

use super::{Event, TOUCH};
use crate::body::character::Character;
use crate::model::target::Target;
use crate::world::World;
use collide_core::Vec2;

/// The order in which the characters move when some stand on others (storage indices, each
/// carrier before its riders), and where each character was at the step's start (by storage
/// index).
pub(super) type RiderOrder = (Option<Vec<usize>>, Option<Vec<Vec2>>);

impl World {
    /// The storage index of the character character `i` stands on, if it stands on one.
    fn carrier_of(&self, i: usize) -> Option<usize> {
        match self.characters[i].ground.map(|g| g.target) {
            Some(Target::Character(id)) => self.character_slots.get(id).filter(|&j| j != i),
            _ => None,
        }
    }

    /// The order of the step's characters: storage order, but each carrier before its riders
    /// (a rider's chain of carriers is walked down to a character that stands on none, or on
    /// one already placed; a loop, which boxes standing on each other cannot make, is cut
    /// where it closes). `(None, None)` when no character stands on another.
    pub(super) fn character_order(&self) -> RiderOrder {
        let n = self.characters.len();
        if !(0..n).any(|i| self.carrier_of(i).is_some()) {
            return (None, None);
        }
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut chain = Vec::new();
        for i in 0..n {
            let mut at = Some(i);
            while let Some(k) = at.filter(|&k| !placed[k]) {
                placed[k] = true;
                chain.push(k);
                at = self.carrier_of(k);
            }
            order.extend(chain.drain(..).rev());
        }
        let starts = self.characters.iter().map(|c| c.pos).collect();
        (Some(order), Some(starts))
    }

    /// Carries rider `c` by its carrier's displacement since the step's start (`starts`, by
    /// storage index): onto the carrier's top exactly when nothing stopped it.
    #[inline(never)]
    pub(super) fn carry_by_character(
        &self,
        c: &mut Character,
        starts: &[Vec2],
        events: &mut Vec<Event>,
    ) {
        let Some(Target::Character(id)) = c.ground.map(|g| g.target) else {
            return;
        };
        let Some(j) = self.character_slots.get(id).filter(|_| id != c.id) else {
            return;
        };
        let carrier = &self.characters[j];
        let d = carrier.pos - starts[j];
        let half = carrier.desc.half_extents.y;
        let top = carrier.pos.y - half;
        // On the carrier's top at the step's start (a carrier that moved after it in the
        // last step may have left a gap, which the carry keeps).
        let on_top = (c.aabb().max.y - (starts[j].y - half)).abs() <= TOUCH;
        let by = Target::Character(id);
        let to = c.pos + d;
        if d != Vec2::ZERO {
            self.push_character(c, by, d, Vec2::ZERO, events);
            // Nothing met (a contact ends it elsewhere, even when the slide along it used
            // up the motion): it stays on the carrier's top exactly.
            if c.pos == to && on_top {
                c.pos.y = top - c.desc.half_extents.y;
            }
        }
    }
}
