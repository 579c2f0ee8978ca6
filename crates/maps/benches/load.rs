//! Criterion benchmark of map loading: the LDtk sample (all four levels' project parsed, the
//! first level mapped) and a generated 1024 x 1024-tile Tiled map (CSV tile layer named
//! `Collision`, a wall border and one wall tile in seven inside, plus 200 rectangle objects).
//!
//! `cargo bench -p collide-maps --bench load` (the LDtk sample from `../shared/maps` beside the
//! repository).

use std::path::{Path, PathBuf};
use std::time::Duration;

use collide_maps::MapConfig;
use criterion::{criterion_main, Criterion};

/// A `side` x `side` Tiled map of 16-px tiles as TMX text.
fn big_tmx(side: usize) -> String {
    let mut csv = String::with_capacity(side * side * 2 + side);
    for y in 0..side {
        for x in 0..side {
            let border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
            let wall = border || (x * 31 + y * 17) % 7 == 0;
            csv.push(if wall { '1' } else { '0' });
            if x + 1 < side || y + 1 < side {
                csv.push(',');
            }
        }
        csv.push('\n');
    }
    let mut objects = String::new();
    for i in 0..200 {
        objects.push_str(&format!(
            "  <object id=\"{}\" x=\"{}\" y=\"{}\" width=\"48\" height=\"16\"><properties><property name=\"collide\" value=\"wall\"/></properties></object>\n",
            i + 1,
            64 + (i * 80) % 16000,
            64 + (i / 200) * 32
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.10\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"{side}\" height=\"{side}\" tilewidth=\"16\" tileheight=\"16\" infinite=\"0\" nextlayerid=\"3\" nextobjectid=\"201\">\n <tileset firstgid=\"1\" name=\"t\" tilewidth=\"16\" tileheight=\"16\" tilecount=\"1\" columns=\"1\"><image source=\"t.png\" width=\"16\" height=\"16\"/></tileset>\n <layer id=\"1\" name=\"Collision\" width=\"{side}\" height=\"{side}\"><data encoding=\"csv\">\n{csv}</data></layer>\n <objectgroup id=\"2\" name=\"blocks\">\n{objects} </objectgroup>\n</map>\n"
    )
}

fn ldtk_sample() -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/maps/ldtk/Typical_2D_platformer_example.ldtk");
    assert!(p.is_file(), "the LDtk sample is missing: {}", p.display());
    p
}

fn load(c: &mut Criterion) {
    let cfg = MapConfig::default();
    let mut group = c.benchmark_group("load");
    group
        .measurement_time(Duration::from_secs(5))
        .sample_size(20);
    let ldtk = ldtk_sample();
    group.bench_function("ldtk_sample_first_level", |b| {
        b.iter(|| collide_maps::ldtk::load_ldtk(&ldtk, None, &cfg).expect("loads"))
    });
    let text = big_tmx(1024);
    let level = collide_maps::tiled::load_tmx_bytes(Path::new("big.tmx"), text.as_bytes(), &cfg)
        .expect("loads");
    let g = level.scene.grid.as_ref().expect("grid");
    assert_eq!((g.cols, g.rows), (1024, 1024));
    group.bench_function("tiled_1024x1024", |b| {
        b.iter(|| {
            collide_maps::tiled::load_tmx_bytes(Path::new("big.tmx"), text.as_bytes(), &cfg)
                .expect("loads")
        })
    });
    group.finish();
}

fn benches() {
    let mut c = Criterion::default().configure_from_args();
    load(&mut c);
}

criterion_main!(benches);
