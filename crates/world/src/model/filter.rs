//! Collision layers and masks: which bodies and cell kinds collide with which.
//!
//! Every body ([`crate::Surface::filter`] on its description) and the two kinds of
//! grid cell ([`crate::GridDesc::wall_filter`] for every [`Cell::Wall`], [`crate::GridDesc::brick_filter`]
//! for every [`Cell::Brick`]) has a [`Filter`]: 32 bits of `layers` (what it is) and 32 bits of
//! `mask` (what it collides with).
//!
//! - **The rule.** Two bodies `a` and `b` collide only when
//!   `a.layers & b.mask != 0 && b.layers & a.mask != 0` ([`Filter::collides`]): each must be
//!   on a layer the other looks at. The rule is symmetric. A body on no layer (`layers` 0)
//!   collides with nothing.
//! - **The default** is `layers = 1`, `mask = u32::MAX` ([`Filter::DEFAULT`]): everything
//!   collides with everything, exactly as in a world without filters (the same bits, the same
//!   [`crate::World::state_hash`]).
//! - **The world's closed walls** (the sides of the world rectangle) collide with every body
//!   whatever its filter: they are the world's edge, not a body, and a body that ignored them
//!   would fly off to infinity (an open side, which removes bodies, is the way to let them
//!   go).
//! - **Filtered pairs are never predicted.** The pair search skips a candidate of a filtered
//!   pair before solving anything; a static search leaves out the rectangles a body does not
//!   collide with; the grid walk leaves out the cell kinds it does not collide with. The
//!   push-out of embedded bodies ignores them too, and so does the squeeze rule of kinematic
//!   rectangles. A sensor rectangle reports only the balls it collides with.
//! - **Exposure is per filter.** A cell of a kind a body ignores is empty space for that body:
//!   the faces and corners of its neighbours next to it are exposed for that body (no ghost
//!   collision, no hole). The grid keeps exposed features for each of the (at most three)
//!   sets of cell kinds a body can collide with: walls and bricks, walls only, bricks only
//!   (the last two only while the walls' filter differs from the bricks'; see
//!   [`crate::grid`]).
//! - **Queries** ([`crate::World::cast_circle`], [`crate::World::query_point`],
//!   [`crate::World::query_aabb`] and their [`crate::QueryIndex`] twins) take a [`Filter`] and
//!   report what a body of that filter would collide with: [`Filter::ALL`] reports every body
//!   and cell on some layer; a ball's own filter makes an aim preview see what the ball
//!   would hit.
//!
//! Conventions as in `collide-core`.

use crate::model::cell::Cell;

/// What a body is (`layers`) and what it collides with (`mask`): see [`crate::Filter`].
///
/// ```
/// use collide_world::Filter;
/// // Players on layer 1, ghosts on layer 2 that pass through players.
/// let player = Filter { layers: 0b01, mask: u32::MAX };
/// let ghost = Filter { layers: 0b10, mask: !0b01 };
/// assert!(!player.collides(ghost)); // ghost.mask & player.layers == 0
/// assert!(ghost.collides(ghost));
/// assert!(Filter::DEFAULT.collides(player));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The layers the body is on, one bit each. Default 1 (layer 0).
    pub layers: u32,
    /// The layers the body collides with. Default `u32::MAX` (all).
    pub mask: u32,
}

impl Filter {
    /// Layer 0, colliding with every layer: every body's and cell kind's default.
    pub const DEFAULT: Filter = Filter {
        layers: 1,
        mask: u32::MAX,
    };
    /// Every layer, colliding with every layer: as a query filter, sees every body and cell
    /// that is on some layer.
    pub const ALL: Filter = Filter {
        layers: u32::MAX,
        mask: u32::MAX,
    };
    /// On no layer: collides with nothing.
    pub const NONE: Filter = Filter { layers: 0, mask: 0 };

    /// A filter of `layers` and `mask`.
    #[must_use]
    pub const fn new(layers: u32, mask: u32) -> Filter {
        Filter { layers, mask }
    }

    /// Whether bodies of filters `self` and `other` collide:
    /// `self.layers & other.mask != 0 && other.layers & self.mask != 0` (symmetric).
    #[must_use]
    #[inline]
    pub const fn collides(self, other: Filter) -> bool {
        self.layers & other.mask != 0 && other.layers & self.mask != 0
    }

    /// Whether this is [`Filter::DEFAULT`].
    #[must_use]
    #[inline]
    pub const fn is_default(self) -> bool {
        self.layers == 1 && self.mask == u32::MAX
    }

    /// The filter as one 64-bit word, `layers` in the low half (hash and snapshot).
    pub(crate) const fn bits(self) -> u64 {
        self.layers as u64 | (self.mask as u64) << 32
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::DEFAULT
    }
}

/// Which kinds of solid cell a body collides with: a set of [`CellKinds::WALLS`] and
/// [`CellKinds::BRICKS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellKinds(pub(crate) u8);

impl CellKinds {
    pub(crate) const NONE: CellKinds = CellKinds(0);
    pub(crate) const WALLS: CellKinds = CellKinds(1);
    pub(crate) const BRICKS: CellKinds = CellKinds(2);
    pub(crate) const ALL: CellKinds = CellKinds(3);

    /// Whether a cell of kind `cell` is an obstacle for these kinds.
    #[inline]
    pub(crate) const fn solid(self, cell: Cell) -> bool {
        match cell {
            Cell::Empty | Cell::Sensor(_) => false,
            Cell::Wall | Cell::Slope(_) => self.0 & 1 != 0,
            Cell::Brick(_) => self.0 & 2 != 0,
        }
    }

    #[inline]
    pub(crate) const fn is_none(self) -> bool {
        self.0 == 0
    }
}
