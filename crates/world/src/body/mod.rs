//! The bodies a world holds besides balls' and rectangles' records: characters, flippers, static shapes
//! (segments, polylines, circles) and their spatial index, rectangles' anchored paths and a
//! ball's own gravity scale.

pub(crate) mod ball_gravity;
pub(crate) mod flipper;

pub(crate) mod ball;
pub(crate) mod character;
pub(crate) mod crowd;
pub(crate) mod rect;
pub(crate) mod rest;
pub(crate) mod shape;
pub(crate) mod shape_index;
