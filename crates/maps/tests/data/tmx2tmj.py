#!/usr/bin/env python3
"""Converts a Tiled XML map (.tmx) and its external XML tilesets (.tsx) to Tiled's JSON
formats (.tmj, .tsj), written the way Tiled's own JSON export writes them
(https://doc.mapeditor.org/en/stable/reference/json-map-format/): the map's layers in
"layers", objects in "objects", properties as [{"name", "type", "value"}], tile objects with
their "gid", external tilesets renamed to .tsj.

Covers what Tiled's example maps use: object and tile layers (csv and base64 data), groups,
rectangles, ellipses, points, polygons, polylines, tile objects, properties, image-collection
and single-image tilesets, text objects.

Usage: tmx2tmj.py MAP.tmx OUT_DIR
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def num(text):
    """An XML number as JSON writes it: an int when integral in the text, else a float."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def props(el):
    out = []
    p = el.find("properties")
    if p is None:
        return out
    for q in p.findall("property"):
        kind = q.get("type", "string")
        value = q.get("value", q.text or "")
        if kind == "bool":
            value = value == "true"
        elif kind in ("int", "object"):
            value = int(value)
        elif kind == "float":
            value = float(value)
        out.append({"name": q.get("name"), "type": kind, "value": value})
    return out


def with_props(d, el):
    p = props(el)
    if p:
        d["properties"] = p
    return d


def obj(o):
    if o.get("template") is not None:
        # A template instance: only the attributes it overrides, as Tiled writes them.
        d = {"id": int(o.get("id")), "template": o.get("template")}
        for k in ("name", "type", "x", "y", "width", "height", "rotation"):
            if o.get(k) is not None:
                d[k] = o.get(k) if k in ("name", "type") else num(o.get(k))
        return with_props(d, o)
    d = {"id": int(o.get("id"))}
    if o.get("gid") is not None:
        d["gid"] = int(o.get("gid"))
    d["name"] = o.get("name", "")
    d["type"] = o.get("type", o.get("class", ""))
    d["x"] = num(o.get("x", "0"))
    d["y"] = num(o.get("y", "0"))
    d["width"] = num(o.get("width", "0"))
    d["height"] = num(o.get("height", "0"))
    d["rotation"] = num(o.get("rotation", "0"))
    d["visible"] = o.get("visible", "1") == "1"
    if o.find("ellipse") is not None:
        d["ellipse"] = True
    if o.find("point") is not None:
        d["point"] = True
    t = o.find("text")
    if t is not None:
        d["text"] = {"text": t.text or ""}
        for k in ("wrap", "bold", "italic", "underline", "strikeout", "kerning"):
            if t.get(k) is not None:
                d["text"][k] = t.get(k) == "1"
        for k in ("fontfamily", "color", "halign", "valign"):
            if t.get(k) is not None:
                d["text"][k] = t.get(k)
        if t.get("pixelsize") is not None:
            d["text"]["pixelsize"] = int(t.get("pixelsize"))
    for tag in ("polygon", "polyline"):
        e = o.find(tag)
        if e is not None:
            d[tag] = [
                {"x": num(p.split(",")[0]), "y": num(p.split(",")[1])}
                for p in e.get("points").split()
            ]
    return with_props(d, o)


def layer(el):
    common = {
        "id": int(el.get("id", "0")),
        "name": el.get("name", ""),
        "opacity": num(el.get("opacity", "1")),
        "visible": el.get("visible", "1") == "1",
        "x": 0,
        "y": 0,
    }
    for k in ("offsetx", "offsety", "parallaxx", "parallaxy"):
        if el.get(k) is not None:
            common[k] = num(el.get(k))
    if el.tag == "objectgroup":
        d = {"type": "objectgroup", "draworder": el.get("draworder", "topdown")}
        d.update(common)
        d["objects"] = [obj(o) for o in el.findall("object")]
    elif el.tag == "layer":
        d = {"type": "tilelayer", "width": int(el.get("width")), "height": int(el.get("height"))}
        d.update(common)
        data = el.find("data")
        if data.get("encoding") == "csv":
            d["data"] = [int(g) for g in data.text.replace("\n", "").split(",") if g.strip()]
        else:
            d["encoding"] = "base64"
            d["compression"] = data.get("compression", "")
            d["data"] = data.text.strip()
    elif el.tag == "group":
        d = {"type": "group"}
        d.update(common)
        d["layers"] = [layer(c) for c in el if c.tag in LAYERS]
    else:
        d = {"type": "imagelayer"}
        d.update(common)
        img = el.find("image")
        d["image"] = img.get("source") if img is not None else ""
    return with_props(d, el)


LAYERS = ("layer", "objectgroup", "imagelayer", "group")


def tileset(ts):
    d = {"name": ts.get("name")}
    for k in ("tilewidth", "tileheight", "tilecount", "columns", "spacing", "margin"):
        d[k] = int(ts.get(k, "0"))
    img = ts.find("image")
    if img is not None:
        d["image"] = img.get("source")
        d["imagewidth"] = int(img.get("width"))
        d["imageheight"] = int(img.get("height"))
    tiles = []
    for t in ts.findall("tile"):
        td = {"id": int(t.get("id"))}
        ti = t.find("image")
        if ti is not None:
            td["image"] = ti.get("source")
            td["imagewidth"] = int(ti.get("width"))
            td["imageheight"] = int(ti.get("height"))
        tiles.append(with_props(td, t))
    if tiles:
        d["tiles"] = tiles
    d["type"] = "tileset"
    d["version"] = ts.get("version", "1.10")
    d["tiledversion"] = ts.get("tiledversion", "")
    return with_props(d, ts)


def main(src, out_dir):
    root = ET.parse(src).getroot()
    base = os.path.dirname(src)
    m = {"compressionlevel": -1, "type": "map", "version": root.get("version")}
    m["tiledversion"] = root.get("tiledversion")
    m["orientation"] = root.get("orientation")
    m["renderorder"] = root.get("renderorder")
    for k in ("width", "height", "tilewidth", "tileheight", "nextlayerid", "nextobjectid"):
        m[k] = int(root.get(k))
    m["infinite"] = root.get("infinite") == "1"
    if root.get("backgroundcolor"):
        m["backgroundcolor"] = root.get("backgroundcolor")
    m["tilesets"] = []
    for ts in root.findall("tileset"):
        source = ts.get("source")
        if source:
            tsj = os.path.splitext(source)[0] + ".tsj"
            ext = ET.parse(os.path.join(base, source)).getroot()
            with open(os.path.join(out_dir, tsj), "w") as f:
                json.dump(tileset(ext), f, indent=1)
                f.write("\n")
            m["tilesets"].append({"firstgid": int(ts.get("firstgid")), "source": tsj})
        else:
            d = tileset(ts)
            d["firstgid"] = int(ts.get("firstgid"))
            m["tilesets"].append(d)
    m["layers"] = [layer(c) for c in root if c.tag in LAYERS]
    with_props(m, root)
    name = os.path.splitext(os.path.basename(src))[0] + ".tmj"
    with open(os.path.join(out_dir, name), "w") as f:
        json.dump(m, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
