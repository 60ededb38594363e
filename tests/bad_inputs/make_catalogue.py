#!/usr/bin/env python3
"""Write the catalogue of hostile and broken inputs from one real export.

Usage: python make_catalogue.py GOOD.pt2 OUT_DIR

It first runs tests/engine/make_bad_archives.py (one defect each: the
engine suite's files) into OUT_DIR and lists those too. GOOD.pt2 is an oracle fixture (book_mlp: x[2, 10] -> linear -> relu ->
linear). Every file written here is broken in one way that an attacker or a
damaged download could produce: zip structure, JSON, tensor metadata, graph
structure, operators with side effects, symbolic arithmetic, inputs files,
pickled weights, dynamic_shapes specs, limits and sizes that must stay linear.

OUT_DIR/catalogue.json lists one case per entry:
  class    the issue's class of defect
  file     the file (relative to OUT_DIR) the case is about
  args     the exportlens command line; {file} and {dir} are substituted
  exit     the expected exit code
  expect   a fragment the one-line message must contain (it names the place)
  stream   where the message goes: "stderr" (errors) or "stdout"
  seconds  (optional) the time the run must finish in, when tighter than the suite's
The C++ suite (test_bad_inputs.cpp) runs every case under a memory and time
bound.
"""
import copy
import io
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib

CASES = []
OUT = ""


def case(cls, file, args, code, expect, stream="stderr", seconds=None):
    c = {"class": cls, "file": file, "args": args, "exit": code, "expect": expect, "stream": stream}
    if seconds:
        c["seconds"] = seconds
    CASES.append(c)


def path(name):
    return os.path.join(OUT, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


# ---- archive helpers -----------------------------------------------------------------


def entries(src):
    with zipfile.ZipFile(src) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def zip_bytes(items, method=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in items:
            z.writestr(name, data)
    return buf.getvalue()


def rewrite(src, name, transform, method=zipfile.ZIP_STORED):
    """Copy the archive; transform(entry_name, data) -> bytes, or None to drop the entry."""
    out = []
    for n, d in entries(src):
        d = transform(n, d)
        if d is not None:
            out.append((n, d))
    write(name, zip_bytes(out, method))


def model_json(src):
    for n, d in entries(src):
        if n.endswith("models/model.json"):
            return json.loads(d)
    raise SystemExit("no models/model.json in " + src)


def with_model(src, name, edit=None, text=None):
    """An archive whose program JSON is edit(doc) (or the given text)."""
    def transform(n, d):
        if not n.endswith("models/model.json"):
            return d
        if text is not None:
            return text
        doc = json.loads(d)
        edit(doc)
        return json.dumps(doc).encode()
    rewrite(src, name, transform)


def with_weights_config(src, name, edit):
    def transform(n, d):
        if n.endswith("_weights_config.json"):
            doc = json.loads(d)
            edit(doc["config"])
            return json.dumps(doc).encode()
        return d
    rewrite(src, name, transform)


def with_entry(src, name, suffix, data):
    rewrite(src, name, lambda n, d: data if n.endswith(suffix) else d)


def with_added_entry(src, name, entry, data):
    """Copy the archive with one more entry, `entry` under the archive's own folder."""
    items = entries(src)
    folder = items[0][0].split("/", 1)[0]
    write(name, zip_bytes(items + [(folder + "/" + entry, data)]))


def graph(doc):
    return doc["graph_module"]["graph"]


def first_node(doc):
    return graph(doc)["nodes"][0]


def cd_offset(raw):
    eocd = raw.rfind(b"PK\x05\x06")
    return eocd, struct.unpack_from("<I", raw, eocd + 16)[0]


def patch_central(raw, entry_suffix, field_offset, fmt, value):
    """Overwrite one field of an entry's central-directory header."""
    raw = bytearray(raw)
    _, cd = cd_offset(raw)
    p = cd
    while raw[p:p + 4] == b"PK\x01\x02":
        n_len, x_len, c_len = struct.unpack_from("<HHH", raw, p + 28)
        name = bytes(raw[p + 46:p + 46 + n_len]).decode()
        if name.endswith(entry_suffix):
            struct.pack_into(fmt, raw, p + field_offset, value)
            return bytes(raw)
        p += 46 + n_len + x_len + c_len
    raise SystemExit("no entry " + entry_suffix)


# ---- torch.save files written by hand (pickle protocol 2) ----------------------------


def pickle_str(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def pickle_int(v):
    if -2 ** 31 <= v < 2 ** 31:
        return b"J" + struct.pack("<i", v)  # BININT
    n = (v.bit_length() + 8) // 8
    return b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)  # LONG1


def tensor_pickle(storage_type, key, numel, sizes, strides):
    """torch._utils._rebuild_tensor_v2(storage, 0, sizes, strides, False, OrderedDict())."""
    def tup(items):
        return b"(" + b"".join(items) + b"t"
    pid = tup([pickle_str("storage"), b"ctorch\n" + storage_type.encode() + b"\n", pickle_str(key),
               pickle_str("cpu"), pickle_int(numel)])
    args = tup([pid + b"Q", pickle_int(0), tup([pickle_int(s) for s in sizes]), tup([pickle_int(s) for s in strides]),
                b"\x89", b"ccollections\nOrderedDict\n)R"])
    return b"ctorch._utils\n_rebuild_tensor_v2\n" + args + b"R"


def torch_save(pickle_body, records, prefix="archive", method=zipfile.ZIP_STORED):
    items = [(prefix + "/data.pkl", b"\x80\x02" + pickle_body + b"."), (prefix + "/byteorder", b"little"),
             (prefix + "/version", b"3\n")]
    items += [(prefix + "/data/" + k, v) for k, v in records.items()]
    return zip_bytes(items, method)


def memo_put(i):
    return b"r" + struct.pack("<I", i)  # LONG_BINPUT


def memo_get(i):
    return b"j" + struct.pack("<I", i)  # LONG_BINGET


def tuple_of(body):
    return body + b"\x85"  # TUPLE1


# ---- the catalogue ---------------------------------------------------------------------


def basic_cases():
    """The one-defect files tests/engine/make_bad_archives.py writes (into OUT too)."""
    case("zip", "truncated.pt2", ["print", "{file}"], 1, "truncated")
    case("zip", "empty.pt2", ["info", "{file}"], 1, "not a zip archive")
    case("zip", "not_a_zip.pt2", ["print", "{file}"], 1, "not a zip archive")
    case("zip", "corrupt_crc.pt2", ["run", "{file}", "--random"], 1, "CRC mismatch in")
    case("zip", "missing_weights.pt2", ["print", "{file}"], 1, "weight 'fc1.weight' is missing")
    case("json", "bad_json.pt2", ["print", "{file}"], 1, "models/model.json: invalid JSON at byte")
    case("json", "unknown_schema.pt2", ["print", "{file}"], 1, "unsupported schema version 99")
    case("json", "bad_dtype.pt2", ["print", "{file}"], 1, "unknown dtype code 999")
    case("graph", "dangling_ref.pt2", ["print", "{file}"], 1,
         "graph.nodes[0].inputs[0].arg.as_tensor: refers to undefined value 'no_such_value'")
    case("ops", "unknown_op.pt2", ["run", "{file}", "--random"], 1, "nowhere_lib::not_loaded")
    for name, expect in [("not_inputs.pt", "not_inputs.pt: not a torch.save file"),
                         ("wrong_shape_inputs.pt", "Guard failed: x.size()[0] == 2 (got 3)"),
                         ("wrong_dtype_inputs.pt", "expected dtype torch.float32, got torch.float64")]:
        case("inputs", name, ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, expect)


def zip_cases(good, raw):
    cls = "zip"
    eocd, cd = cd_offset(raw)
    bad = bytearray(raw)
    struct.pack_into("<I", bad, eocd + 16, len(raw) + 1000)
    write("central_dir_outside.pt2", bytes(bad))
    case(cls, "central_dir_outside.pt2", ["print", "{file}"], 1, "central directory")
    bad = bytearray(raw)
    struct.pack_into("<H", bad, eocd + 10, 0xFFFE)  # entry count far beyond the directory
    struct.pack_into("<H", bad, eocd + 8, 0xFFFE)
    write("entry_count_huge.pt2", bytes(bad))
    case(cls, "entry_count_huge.pt2", ["print", "{file}"], 1, "corrupt central directory entry")

    # A weight whose header declares 4 GiB stored: refused before anything is allocated.
    write("declared_4gib.pt2", patch_central(raw, "weights/weight_0", 20, "<I", 0xFFFFFFF0))
    case(cls, "declared_4gib.pt2", ["run", "{file}", "--random"], 1, "weight_0")
    write("declared_4gib_inflated.pt2", patch_central(raw, "weights/weight_0", 24, "<I", 0xFFFFFFF0))
    case(cls, "declared_4gib_inflated.pt2", ["run", "{file}", "--random"], 1, "weight_0")
    write("local_header_outside.pt2", patch_central(raw, "models/model.json", 42, "<I", len(raw) + 5))
    case(cls, "local_header_outside.pt2", ["print", "{file}"], 1, "local header of")
    write("bad_method.pt2", patch_central(raw, "models/model.json", 10, "<H", 12))
    case(cls, "bad_method.pt2", ["print", "{file}"], 1, "unsupported compression method 12")

    # A zip bomb: a weight of 64 MiB of zeros deflates to ~64 KiB (ratio ~1000).
    def bomb(n, d):
        return b"\0" * (64 << 20) if n.endswith("weights/weight_0") else d
    rewrite(good, "zip_bomb.pt2", bomb, zipfile.ZIP_DEFLATED)
    case(cls, "zip_bomb.pt2", ["run", "{file}", "--random"], 1, "ratio over the limit")
    # The same bomb under a lower entry-size limit: the declared size is refused first.
    case("limits", "zip_bomb.pt2", ["run", "{file}", "--random", "--limit", "entry-bytes=1M,ratio=100000"], 1,
         "over the limit of 1048576")
    # Deflated data that does not inflate to its declared size.
    items = entries(good)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in items:
            z.writestr(n, d)
    deflated = buf.getvalue()
    write("inflate_short.pt2", patch_central(deflated, "models/model.json", 24, "<I", 7000))
    case(cls, "inflate_short.pt2", ["print", "{file}"], 1, "models/model.json")

    rewrite(good, "no_archive_format.pt2", lambda n, d: None if n.endswith("/archive_format") else d)
    case(cls, "no_archive_format.pt2", ["print", "{file}"], 1, "no archive_format entry")
    with_entry(good, "wrong_archive_format.pt2", "/archive_format", b"zip")
    case(cls, "wrong_archive_format.pt2", ["print", "{file}"], 1, "archive_format is 'zip'")
    rewrite(good, "no_model.pt2", lambda n, d: None if "/models/" in n else d)
    case(cls, "no_model.pt2", ["print", "{file}"], 1, "no exported program")


def json_cases(good):
    cls = "json"
    with_model(good, "nested_json.pt2", text=b"[" * 100000 + b"]" * 100000)
    case(cls, "nested_json.pt2", ["print", "{file}"], 1, "JSON nested 100000 levels deep")
    with_model(good, "nested_json_unclosed.pt2", text=b'{"a":' * 200000)
    case(cls, "nested_json_unclosed.pt2", ["info", "{file}"], 1, "levels deep")

    def string_dtype(doc):
        next(iter(graph(doc)["tensor_values"].values()))["dtype"] = "float32"
    with_model(good, "dtype_is_string.pt2", string_dtype)
    case(cls, "dtype_is_string.pt2", ["print", "{file}"], 1, ".dtype: expected an integer")

    def huge_dtype(doc):
        next(iter(graph(doc)["tensor_values"].values()))["dtype"] = 10 ** 30
    with_model(good, "dtype_huge_number.pt2", huge_dtype)
    case(cls, "dtype_huge_number.pt2", ["print", "{file}"], 1, ".dtype: integer out of the int64 range")

    def no_nodes(doc):
        del graph(doc)["nodes"]
    with_model(good, "missing_nodes.pt2", no_nodes)
    case(cls, "missing_nodes.pt2", ["print", "{file}"], 1, "graph_module.graph: missing field 'nodes'")

    def two_tags(doc):
        first_node(doc)["inputs"][0]["arg"] = {"as_tensor": {"name": "x"}, "as_int": 3}
    with_model(good, "union_two_tags.pt2", two_tags)
    case(cls, "union_two_tags.pt2", ["print", "{file}"], 1, "graph.nodes[0].inputs[0].arg: expected exactly one field")

    def target_number(doc):
        first_node(doc)["target"] = 42
    with_model(good, "target_not_string.pt2", target_number)
    case(cls, "target_not_string.pt2", ["print", "{file}"], 1, "graph.nodes[0].target: expected a string")

    def nodes_object(doc):
        graph(doc)["nodes"] = {"a": 1}
    with_model(good, "nodes_not_array.pt2", nodes_object)
    case(cls, "nodes_not_array.pt2", ["print", "{file}"], 1, "graph.nodes: expected an array")

    # The schemas ExportLens' Python helpers record beside a program (exportlens_capture.op_schemas).
    def op_schemas(*ops, version=1):
        return json.dumps({"format": "exportlens-op-schemas", "version": version,
                           "ops": [{"schema": s, "tags": []} for s in ops]}).encode()
    with_added_entry(good, "op_schema_not_a_schema.pt2", "extra/exportlens_op_schemas.json",
                     op_schemas("mylib::scale_(Tensor(a0!) state, float factor"))
    case(cls, "op_schema_not_a_schema.pt2", ["print", "{file}"], 1,
         "extra/exportlens_op_schemas.json.ops[0].schema: 'mylib::scale_(Tensor(a0!) state, float factor' is not an "
         "operator schema")
    with_added_entry(good, "op_schemas_version.pt2", "extra/exportlens_op_schemas.json", op_schemas(version=7))
    case(cls, "op_schemas_version.pt2", ["print", "{file}"], 1, "exportlens_op_schemas.json.version: version 7 is not 1")

    def bad_config(n, d):
        return b'{"config": [' if n.endswith("_weights_config.json") else d
    rewrite(good, "bad_weights_config.pt2", bad_config)
    case(cls, "bad_weights_config.pt2", ["print", "{file}"], 1, "model_weights_config.json: invalid JSON")

    # cond branches nested inside each other far past any real program.
    def nested_subgraphs(doc):
        g = graph(doc)
        inner = {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {}}
        for _ in range(60):
            node = {"target": "torch.ops.higher_order.cond", "name": "cond",
                    "inputs": [{"name": "", "kind": 1, "arg": {"as_graph": {"name": "g", "graph": inner}}}],
                    "outputs": []}
            inner = {"inputs": [], "outputs": [], "nodes": [node], "tensor_values": {}}
        g["nodes"].insert(0, inner["nodes"][0])
    with_model(good, "nested_subgraphs.pt2", nested_subgraphs)
    case(cls, "nested_subgraphs.pt2", ["print", "{file}"], 1, "levels deep, over the limit of 256")


def metadata_cases(good):
    cls = "metadata"

    def tensor_value(name):
        def edit(doc):
            return graph(doc)["tensor_values"][name]
        return edit

    def meta_case(file, mutate, expect, args=("print", "{file}")):
        def edit(doc):
            mutate(graph(doc)["tensor_values"]["linear"])
        with_model(good, file, edit)
        case(cls, file, list(args), 1, expect)

    meta_case("rank_mismatch.pt2", lambda m: m["strides"].pop(), "node 'linear': tensor metadata has 2 sizes but 1 strides")
    meta_case("negative_size.pt2", lambda m: m["sizes"].__setitem__(0, {"as_int": -5}),
              "node 'linear': tensor metadata size -5 of dimension 0 is negative")
    meta_case("numel_overflow.pt2", lambda m: m.update(sizes=[{"as_int": 2 ** 62}, {"as_int": 2 ** 62}]),
              "node 'linear': tensor metadata its sizes multiply past the int64 range")
    meta_case("negative_stride.pt2", lambda m: m["strides"].__setitem__(1, {"as_int": -1}),
              "node 'linear': tensor metadata stride -1 of dimension 1 is negative")
    meta_case("stride_overflow.pt2", lambda m: m["strides"].__setitem__(0, {"as_int": 2 ** 63 - 1}),
              "node 'linear': tensor metadata its strides reach past the int64 range")
    meta_case("deep_srepr.pt2",
              lambda m: m["sizes"].__setitem__(0, {"as_expr": {"expr_str": "Add(" * 100000 + "Integer(1)" + ")" * 100000}}),
              "nested more than 200 levels deep")
    meta_case("srepr_int_overflow.pt2",
              lambda m: m["sizes"].__setitem__(0, {"as_expr": {"expr_str": "Integer(99999999999999999999999)"}}),
              "an integer that fits in 64 bits")
    meta_case("srepr_floordiv_overflow.pt2",
              lambda m: m["sizes"].__setitem__(0, {"as_expr": {
                  "expr_str": "FloorDiv(Integer(-9223372036854775808), Integer(-1))"}}),
              "graph.tensor_values.linear.sizes[0].as_expr.expr_str")
    meta_case("srepr_unknown_class.pt2",
              lambda m: m["sizes"].__setitem__(0, {"as_expr": {"expr_str": "__import__('os').system('id')"}}),
              "bad symbolic expression")

    def weight_meta(file, mutate, expect, args=("run", "{file}", "--random")):
        def edit(config):
            mutate(config["fc1.weight"]["tensor_meta"])
        with_weights_config(good, file, edit)
        case(cls, file, list(args), 1, expect)

    weight_meta("weight_extent_beyond_bytes.pt2", lambda m: m.update(sizes=[{"as_int": 50}, {"as_int": 10}]),
                "weight 'fc1.weight': its view needs 2000 bytes but the archive stores 200")
    weight_meta("weight_offset_beyond_bytes.pt2", lambda m: m.update(storage_offset={"as_int": 2 ** 40}),
                "weight 'fc1.weight': its view needs")
    weight_meta("weight_rank_mismatch.pt2", lambda m: m["strides"].append({"as_int": 1}),
                "weight 'fc1.weight': tensor metadata has 2 sizes but 3 strides", ("print", "{file}"))

    # An empty weight file declaring 30000 x 30000 floats: refused, not zero-filled.
    def empty_weight(n, d):
        if n.endswith("weights/weight_0"):
            return b""
        if n.endswith("_weights_config.json"):
            doc = json.loads(d)
            doc["config"]["fc1.weight"]["tensor_meta"].update(
                sizes=[{"as_int": 30000}, {"as_int": 30000}], strides=[{"as_int": 30000}, {"as_int": 1}])
            return json.dumps(doc).encode()
        return d
    rewrite(good, "empty_weight_huge_meta.pt2", empty_weight)
    case(cls, "empty_weight_huge_meta.pt2", ["run", "{file}", "--random"], 1,
         "weight 'fc1.weight': its view needs 3600000000 bytes but the archive stores 0")

    # Recorded guards (guards_code) are parsed by `check`: 10^5 nested parentheses
    # make that guard a diagnostic (it is not replayed), not a stack overflow.
    def deep_guard(doc):
        doc["guards_code"] = ["(" * 100000 + "L['x'].size()[0] <= 16" + ")" * 100000]
    with_model(good, "deep_guard.pt2", deep_guard)
    case(cls, "deep_guard.pt2", ["check", "{file}"], 0, "nested more than 200 levels deep", "stdout")


def graph_cases(good):
    cls = "graph"

    def defined_twice(doc):
        graph(doc)["nodes"][1]["outputs"] = copy.deepcopy(first_node(doc)["outputs"])
    with_model(good, "defined_twice.pt2", defined_twice)
    case(cls, "defined_twice.pt2", ["print", "{file}"], 1, "graph.nodes[1].outputs[0]: value 'linear' is defined twice")

    def use_before_def(doc):
        nodes = graph(doc)["nodes"]
        nodes[0], nodes[1] = nodes[1], nodes[0]
    with_model(good, "use_before_def.pt2", use_before_def)
    case(cls, "use_before_def.pt2", ["print", "{file}"], 1, "refers to undefined value 'linear'")

    def extra_input(doc):
        doc["graph_module"]["signature"]["input_specs"].append(
            {"user_input": {"arg": {"as_tensor": {"name": "ghost"}}}})
    with_model(good, "signature_extra_input.pt2", extra_input)
    case(cls, "signature_extra_input.pt2", ["print", "{file}"], 1, "graph signature input 5 ('ghost'): has no matching placeholder")

    def output_count(doc):
        doc["graph_module"]["signature"]["output_specs"] *= 3
    with_model(good, "signature_output_count.pt2", output_count)
    case(cls, "signature_output_count.pt2", ["print", "{file}"], 1, "has 3 outputs but the graph returns 1")

    def too_many_nodes(doc):
        template = graph(doc)["nodes"][1]  # relu
        extra = []
        for i in range(2000):
            n = copy.deepcopy(template)
            n["outputs"] = [{"as_tensor": {"name": "extra_%d" % i}}]
            extra.append(n)
        graph(doc)["nodes"][2:2] = extra
    with_model(good, "many_nodes.pt2", too_many_nodes)
    case("limits", "many_nodes.pt2", ["print", "{file}", "--limit", "nodes=1000"], 1, "more than 1000 nodes")

    # 50,000 nodes whose values all print under the same name: FX naming must stay linear.
    def same_names(doc):
        template = graph(doc)["nodes"][1]  # relu(linear)
        extra = []
        for i in range(50000):
            n = copy.deepcopy(template)
            n["outputs"] = [{"as_none": None}]
            n["inputs"][0]["arg"] = {"as_tensor": {"name": "linear"}}
            extra.append(n)
        graph(doc)["nodes"][2:2] = extra
    with_model(good, "same_names_50k.pt2", same_names)
    case("linear_time", "same_names_50k.pt2", ["info", "{file}"], 0, "relu", "stdout")


def op_cases(good):
    cls = "ops"

    def add_node(target, inputs, outputs=None):
        def edit(doc):
            graph(doc)["nodes"].insert(0, {"target": target, "inputs": inputs, "outputs": outputs or [{"as_none": None}],
                                           "name": "side_effect"})
        return edit

    def s(v):
        return {"as_string": v}

    def arg(name, a):
        return {"name": name, "arg": a, "kind": 1}

    from_file = add_node("torch.ops.aten.from_file.default",
                         [arg("filename", s("/etc/passwd")), arg("shared", {"as_bool": True})],
                         [{"as_tensor": {"name": "stolen"}}])
    def with_from_file(doc):
        from_file(doc)
        graph(doc)["tensor_values"]["stolen"] = copy.deepcopy(graph(doc)["tensor_values"]["x"])
    with_model(good, "op_from_file.pt2", with_from_file)
    case(cls, "op_from_file.pt2", ["run", "{file}", "--random"], 1,
         "refusing to run node 'stolen' (aten::from_file): the op reads or writes a file")
    case(cls, "op_from_file.pt2", ["info", "{file}"], 0, "node 'stolen' (aten::from_file): reads or writes a file", "stdout")
    case(cls, "op_from_file.pt2", ["run", "{file}", "--random", "--allow-op", "nonsense"], 2, "--allow-op expects")

    with_model(good, "op_save.pt2", add_node("torch.ops.aten.save.default",
                                              [arg("item", {"as_tensor": {"name": "x"}}), arg("filename", s("/tmp/exportlens_pwned"))]))
    case(cls, "op_save.pt2", ["run", "{file}", "--random"], 1, "aten::save")
    with_model(good, "op_print.pt2", add_node("torch.ops.aten._print.default", [arg("s", s("hello"))]))
    case(cls, "op_print.pt2", ["run", "{file}", "--random"], 1, "(aten::_print): the op writes to the terminal")
    with_model(good, "op_warn.pt2", add_node("torch.ops.aten.warn.default", [arg("message", s("hello"))]))
    case(cls, "op_warn.pt2", ["run", "{file}", "--random"], 1, "aten::warn")  # a TorchScript op: not even registered
    with_model(good, "op_manual_seed.pt2", add_node("torch.ops.aten.manual_seed.default", [arg("seed", {"as_int": 0})]))
    case(cls, "op_manual_seed.pt2", ["run", "{file}", "--random"], 1, "aten::manual_seed")
    with_model(good, "op_set_storage.pt2", add_node("torch.ops.aten.set_.source_Tensor",
                                                     [arg("self", {"as_tensor": {"name": "x"}}),
                                                      arg("source", {"as_tensor": {"name": "p_fc1_weight"}})]))
    case(cls, "op_set_storage.pt2", ["run", "{file}", "--random"], 1, "(aten::set_.source_Tensor): the op swaps a tensor's storage")
    with_model(good, "op_cufft_state.pt2", add_node("torch.ops.aten._cufft_set_plan_cache_max_size.default",
                                                     [arg("device_index", {"as_int": 0}), arg("max_size", {"as_int": 1})]))
    case(cls, "op_cufft_state.pt2", ["run", "{file}", "--random"], 1, "changes process-wide state")
    with_model(good, "op_collective.pt2", add_node("torch.ops._c10d_functional.wait_tensor.default",
                                                    [arg("tensor", {"as_tensor": {"name": "x"}})]))
    case(cls, "op_collective.pt2", ["run", "{file}", "--random"], 1, "_c10d_functional")


def arithmetic_cases(good):
    cls = "arithmetic"

    def sym_node(file, target, args, expect):
        def edit(doc):
            inputs = [{"name": "", "arg": {"as_sym_int": {"as_int": a}}, "kind": 1} for a in args]
            graph(doc)["nodes"].insert(0, {"target": target, "inputs": inputs,
                                           "outputs": [{"as_sym_int": {"as_name": "computed"}}], "name": "computed"})
            graph(doc)["sym_int_values"]["computed"] = {"as_int": 0}
        with_model(good, file, edit)
        case(cls, file, ["run", "{file}", "--random"], 1, expect)

    sym_node("sym_floordiv_min_by_minus1.pt2", "_operator.floordiv", [-2 ** 63, -1],
             "node 'computed' (_operator.floordiv): integer overflow in floor division")
    sym_node("sym_mod_min_by_minus1.pt2", "_operator.mod", [-2 ** 63, 0], "node 'computed' (_operator.mod): integer division by zero")
    sym_node("sym_mul_overflow.pt2", "_operator.mul", [2 ** 62, 4], "node 'computed' (_operator.mul): integer overflow in mul")
    sym_node("sym_pow_overflow.pt2", "_operator.pow", [3, 2 ** 40], "node 'computed' (_operator.pow): integer overflow")

    def getitem_int(doc):
        graph(doc)["nodes"].insert(0, {"target": "_operator.getitem", "name": "g",
                                       "inputs": [{"name": "", "arg": {"as_int": 7}, "kind": 1},
                                                  {"name": "", "arg": {"as_int": 0}, "kind": 1}],
                                       "outputs": [{"as_none": None}]})
    with_model(good, "getitem_on_int.pt2", getitem_int)
    case(cls, "getitem_on_int.pt2", ["run", "{file}", "--random"], 1, "getitem expects a value and an integer index")

    def getitem_range(doc):
        graph(doc)["nodes"].insert(1, {"target": "_operator.getitem", "name": "g",
                                       "inputs": [{"name": "", "arg": {"as_tensor": {"name": "linear"}}, "kind": 1},
                                                  {"name": "", "arg": {"as_int": 99}, "kind": 1}],
                                       "outputs": [{"as_none": None}]})
    with_model(good, "getitem_on_tensor.pt2", getitem_range)
    case(cls, "getitem_on_tensor.pt2", ["run", "{file}", "--random"], 1, "getitem on a value that is neither a tuple nor a list")

    def bare_cond(doc):
        graph(doc)["nodes"].insert(0, {"target": "torch.ops.higher_order.cond", "name": "c", "inputs": [],
                                       "outputs": []})
    with_model(good, "cond_without_arguments.pt2", bare_cond)
    case(cls, "cond_without_arguments.pt2", ["run", "{file}", "--random"], 1, "(torch.ops.higher_order.cond)")

    def wrong_arg_kind(doc):
        first_node(doc)["inputs"][1]["arg"] = {"as_string": "not a tensor"}
    with_model(good, "op_wrong_argument_kind.pt2", wrong_arg_kind)
    case(cls, "op_wrong_argument_kind.pt2", ["run", "{file}", "--random"], 1, "node 'linear' (torch.ops.aten.linear.default)")


def inputs_cases(good):
    cls = "inputs"
    write("inputs_empty.pt", b"")
    case(cls, "inputs_empty.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_empty.pt")
    ok = tensor_pickle("FloatStorage", "0", 20, [2, 10], [10, 1])
    write("inputs_storage_short.pt", torch_save(tuple_of(ok), {"0": b"\0" * 8}))
    case(cls, "inputs_storage_short.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_storage_short.pt")
    write("inputs_storage_huge.pt", torch_save(tuple_of(tensor_pickle("FloatStorage", "0", 2 ** 31 - 1, [2, 10], [10, 1])),
                                               {"0": b"\0" * 80}))
    case(cls, "inputs_storage_huge.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_storage_huge.pt")
    write("inputs_view_beyond_storage.pt", torch_save(tuple_of(tensor_pickle("FloatStorage", "0", 20, [2, 10], [1000, 1])),
                                                      {"0": b"\0" * 80}))
    case(cls, "inputs_view_beyond_storage.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_view_beyond_storage.pt")
    write("inputs_missing_record.pt", torch_save(tuple_of(ok), {}))
    case(cls, "inputs_missing_record.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_missing_record.pt")
    write("inputs_nested_tuples.pt", torch_save(b")" + b"\x85" * 100000, {}))
    case(cls, "inputs_nested_tuples.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_nested_tuples.pt")
    write("inputs_nested_lists.pt", torch_save(b"(" * 50000 + b"]" + b"a" * 49999 + b"\x85", {}))
    case(cls, "inputs_nested_lists.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_nested_lists.pt")
    write("inputs_dict.pt", torch_save(b"}", {}))
    case(cls, "inputs_dict.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_dict.pt")
    write("inputs_global.pt", torch_save(b"cos\nsystem\n" + pickle_str("id") + b"\x85R", {}))
    case(cls, "inputs_global.pt", ["run", "{dir}/good.pt2", "--inputs", "{file}"], 1, "inputs_global.pt")


def with_pickled_weight(good, file, blob):
    """The archive with fc1.weight stored pickled (use_pickle) as `blob`."""
    def transform(n, d):
        if n.endswith("weights/weight_0"):
            return blob
        if n.endswith("_weights_config.json"):
            doc = json.loads(d)
            doc["config"]["fc1.weight"]["use_pickle"] = True
            return json.dumps(doc).encode()
        return d
    rewrite(good, file, transform)


def pickled_weight_cases(good):
    cls = "pickle"

    def pickled(file, blob, expect):
        with_pickled_weight(good, file, blob)
        case(cls, file, ["run", "{file}", "--random"], 1, expect)

    ok = tensor_pickle("FloatStorage", "0", 50, [5, 10], [10, 1])
    pickled("pickled_garbage.pt2", b"garbage", "weight 'fc1.weight': not a zip archive")
    pickled("pickled_not_tensor.pt2", torch_save(pickle_int(3), {}), "weight 'fc1.weight' is pickled but is not a tensor")
    pickled("pickled_wrong_dtype.pt2", torch_save(tensor_pickle("DoubleStorage", "0", 50, [5, 10], [10, 1]), {"0": b"\0" * 400}),
            "weight 'fc1.weight': the pickled tensor is torch.float64 but its metadata says torch.float32")
    pickled("pickled_wrong_sizes.pt2", torch_save(tensor_pickle("FloatStorage", "0", 50, [10, 5], [5, 1]), {"0": b"\0" * 200}),
            "weight 'fc1.weight': the pickled tensor's sizes differ from its metadata")
    pickled("pickled_storage_short.pt2", torch_save(ok, {"0": b"\0" * 16}), "weight 'fc1.weight'")
    pickled("pickled_storage_huge.pt2", torch_save(tensor_pickle("FloatStorage", "0", 2 ** 40, [5, 10], [10, 1]), {"0": b"\0" * 200}),
            "weight 'fc1.weight'")
    pickled("pickled_nested.pt2", torch_save(b")" + b"\x85" * 100000, {}), "weight 'fc1.weight'")


def spec_cases(good):
    cls = "spec"

    def spec(file, text, expect):
        write(file, text.encode())
        case(cls, file, ["check", "{dir}/good.pt2", "--spec", "@{file}"], 2, expect)

    spec("spec_brackets.txt", "dynamic_shapes = " + "(" * 100000 + ")" * 100000, "nested more than 200 levels deep")
    spec("spec_unary_minus.txt", "dynamic_shapes = {'x': (" + "-" * 100000 + "1, None)}", "nested more than 200 levels deep")
    spec("spec_coefficient_overflow.txt",
         "d = Dim('d')\ndynamic_shapes = {'x': (d * 4611686018427387904 * 4, None)}", "integer overflow")
    spec("spec_int_overflow.txt", "dynamic_shapes = {'x': (99999999999999999999999, None)}", "is too large")
    spec("spec_int_arith_overflow.txt", "dynamic_shapes = {'x': (9223372036854775807 + 1, None)}", "integer overflow")
    spec("spec_unterminated.txt", "dynamic_shapes = {'x: (None, None)}", "unterminated string")
    spec("spec_fstring.txt", "dynamic_shapes = {'x': (Dim(f'd{1}'), None)}", "f-strings are not supported")
    spec("spec_code.txt", "__import__('os').system('id')", "name '__import__' is not defined")
    # 40,000 Dim.AUTO entries: read in linear time, then refused for the rank.
    spec("spec_40k_auto.txt", "dynamic_shapes = {'x': (" + "Dim.AUTO, " * 40000 + ")}", "x")


def limits_cases(good):
    cls = "limits"

    def huge_input(doc):
        graph(doc)["tensor_values"]["x"]["sizes"] = [{"as_int": 100000}, {"as_int": 100000}]
        graph(doc)["tensor_values"]["x"]["strides"] = [{"as_int": 100000}, {"as_int": 1}]
    with_model(good, "random_input_40gb.pt2", huge_input)
    case(cls, "random_input_40gb.pt2", ["run", "{file}", "--random"], 1,
         "input 0 ('x'): a random f32[100000, 100000] input needs 40000000000 bytes")
    case(cls, "random_input_40gb.pt2", ["run", "{file}", "--random", "--limit", "input-bytes=1K"], 1, "input 0 ('x')")
    case(cls, "good.pt2", ["print", "{file}", "--limit", "bogus=1"], 2, "unknown limit 'bogus'")
    case(cls, "good.pt2", ["print", "{file}", "--limit", "nesting=5"], 1, "over the limit of 5")


def allocation_cases(good):
    """Allowed ops whose file-controlled arguments ask for huge allocations."""
    cls = "allocation"

    def arg(name, a):
        return {"name": name, "arg": a, "kind": 1}

    def ints(v):
        return {"as_ints": v}

    def x():
        return {"as_tensor": {"name": "x"}}

    def meta(sizes, strides=None, dtype=None):
        def make(doc):
            m = copy.deepcopy(graph(doc)["tensor_values"]["x"])
            if strides is None:
                st, acc = [], 1
                for d in reversed(sizes):
                    st.insert(0, acc)
                    acc *= d
            m["sizes"] = [{"as_int": d} for d in sizes]
            m["strides"] = [{"as_int": d} for d in (strides if strides is not None else st)]
            if dtype is not None:
                m["dtype"] = dtype
            return m
        return make

    def node_case(file, nodes, args, expect):
        """nodes: (name, target, inputs, meta maker) inserted before the first node."""
        def edit(doc):
            for i, (name, target, inputs, make_meta) in enumerate(nodes):
                graph(doc)["nodes"].insert(i, {"target": target, "inputs": inputs, "name": name,
                                               "outputs": [{"as_tensor": {"name": name}}], "metadata": {}})
                graph(doc)["tensor_values"][name] = make_meta(doc)
        with_model(good, file, edit)
        case(cls, file, args, 1, expect)

    run = ["run", "{file}", "--random"]
    one_gib = ["--limit", "run-bytes=1G"]
    full = "torch.ops.aten.full.default"
    huge = [10 ** 7, 10 ** 7]  # 400 TB of float32: over any machine's memory
    fill = arg("fill_value", {"as_float": 1.0})
    # The metadata tells the truth: refused before the op runs, naming the node and the declared shape.
    node_case("alloc_full_declared.pt2", [("big", full, [arg("size", ints(huge)), fill], meta(huge))], run,
              "node 'big' (torch.ops.aten.full.default) declares an output f32[10000000, 10000000] of 363.8 TiB")
    node_case("alloc_zeros_declared.pt2",
              [("big", "torch.ops.aten.zeros.default", [arg("size", ints([1024, 1024]))], meta([1024, 1024]))],
              run + ["--limit", "run-bytes=1M"], "over the run's memory limit of 1.0 MiB (1048576 bytes)")
    # The metadata lies (a small shape): the allocation itself is refused by the run's budget.
    node_case("alloc_full_lying.pt2", [("big", full, [arg("size", ints(huge)), fill], meta([2, 3]))], run,
              "node 'big' (torch.ops.aten.full.default) failed: allocating 363.8 TiB")
    node_case("alloc_full_lying_4g.pt2", [("big", full, [arg("size", ints([32768, 32768])), fill], meta([2, 3]))],
              run + one_gib, "would pass its memory limit of 1.0 GiB (1073741824 bytes) (raise it with --limit run-bytes=")
    node_case("alloc_empty_lying.pt2",
              [("big", "torch.ops.aten.empty.memory_format", [arg("size", ints([32768, 32768]))], meta([2, 3]))],
              run + one_gib, "node 'big' (torch.ops.aten.empty.memory_format) failed: allocating 4.0 GiB")
    # expand is a view (zero strides: nothing allocated); contiguous makes it real.
    wide = [100000000, 2, 10]
    expand = ("wide", "torch.ops.aten.expand.default", [arg("self", x()), arg("size", ints(wide))], meta(wide, [0, 10, 1]))
    node_case("alloc_expand_contiguous.pt2",
              [expand, ("dense", "torch.ops.aten.contiguous.default", [arg("self", {"as_tensor": {"name": "wide"}})],
                        meta(wide))],
              run + one_gib, "node 'dense' (torch.ops.aten.contiguous.default) declares an output f32[100000000, 2, 10]")
    node_case("alloc_expand_contiguous_lying.pt2",
              [expand, ("dense", "torch.ops.aten.contiguous.default", [arg("self", {"as_tensor": {"name": "wide"}})],
                        meta([2, 10]))],
              run + one_gib, "node 'dense' (torch.ops.aten.contiguous.default) failed: allocating 7.5 GiB")
    node_case("alloc_repeat_lying.pt2",
              [("big", "torch.ops.aten.repeat.default", [arg("self", x()), arg("repeats", ints([100000, 100000]))],
                meta([2, 10]))],
              run, "node 'big' (torch.ops.aten.repeat.default) failed: allocating 745.1 GiB")
    node_case("alloc_arange_lying.pt2",
              [("big", "torch.ops.aten.arange.default", [arg("end", {"as_int": 10 ** 13})], meta([10], dtype=5))],
              run, "node 'big' (torch.ops.aten.arange.default) failed: allocating 72.8 TiB")
    # A small op whose real output is not what the file declares is stopped right after it.
    node_case("alloc_output_disagrees.pt2", [("big", full, [arg("size", ints([3, 4])), fill], meta([2, 3]))], run,
              "node 'big' (torch.ops.aten.full.default) produced a value that is f32[3, 4], but the program declares f32[2, 3]")
    node_case("alloc_dtype_disagrees.pt2", [("big", full, [arg("size", ints([2, 3])), fill], meta([2, 3], dtype=5))], run,
              "produced a value that is f32[2, 3], but the program declares i64[2, 3]")


def pickle_bound_cases(good):
    """Pickled payloads read by our rules: memo, objects, nested zips, storages, nesting, globals."""
    cls = "pickle"
    run_inputs = ["run", "{dir}/good.pt2", "--inputs", "{file}"]
    ok = tensor_pickle("FloatStorage", "0", 20, [2, 10], [10, 1])

    def inputs(file, body, records, expect, args=(), method=zipfile.ZIP_STORED):
        write(file, torch_save(body, records, method=method))
        case(cls, file, run_inputs + list(args), 1, expect)

    def weight(file, blob, expect, args=()):
        with_pickled_weight(good, file, blob)
        case(cls, file, ["run", "{file}", "--random"] + list(args), 1, expect)

    # A memo index of 2^28: LibTorch's unpickler sized its memo by it (4.2 GB).
    memo_bomb = b"N" + memo_put(2 ** 28) + b"\x85"
    inputs("inputs_memo_index.pt", memo_bomb, {}, "offset 3: memo index 268435456 is beyond the 1 objects made so far")
    weight("pickled_memo_index.pt2", torch_save(memo_bomb, {}), "memo index 268435456 is beyond")
    # MEMOIZE over and over: the memo may not outgrow the objects made.
    inputs("inputs_memo_growth.pt", b"N" + b"\x94" * 3000000 + b"\x85", {}, "memo index 2 is beyond the 1 objects")
    # 1.1 million objects, over the limit of a million (and under a raised one).
    many = b"(" + b"N" * 1100000 + b"t"
    inputs("inputs_many_objects.pt", many, {}, "makes more than 1000000 objects (raise the limit with --limit pickle-objects")
    case(cls, "inputs_many_objects.pt", run_inputs + ["--limit", "pickle-objects=2000000"], 1,
         "inputs do not match the program")
    # A storage record deflated 1000 to 1 inside the pickled archive: the outer limits reach into it.
    zeros = b"\0" * (64 << 20)
    bomb = tensor_pickle("FloatStorage", "0", len(zeros) // 4, [2, 10], [10, 1])
    inputs("inputs_nested_zip_bomb.pt", tuple_of(bomb), {"0": zeros}, "ratio over the limit of 200",
           method=zipfile.ZIP_DEFLATED)
    weight("pickled_nested_zip_bomb.pt2", torch_save(bomb, {"0": zeros}, method=zipfile.ZIP_DEFLATED),
           "weight 'fc1.weight': archive/data.pkl: offset")
    # Within the ratio, the nested storage still counts toward the archive's total.
    four_mib = b"\0" * (4 << 20)
    big = tensor_pickle("FloatStorage", "0", len(four_mib) // 4, [5, 10], [10, 1])
    weight("pickled_nested_total.pt2", torch_save(big, {"0": four_mib}, method=zipfile.ZIP_DEFLATED),
           "inflate to more than the limit of", ["--limit", "ratio=100000,total-bytes=2M"])
    inputs("inputs_nested_total.pt", tuple_of(tensor_pickle("FloatStorage", "0", len(four_mib) // 4, [2, 10], [10, 1])),
           {"0": four_mib}, "inflate to more than the limit of 1048576", ["--limit", "total-bytes=1M"])
    # The storage record is larger than its element count says: sized by the record, refused before reading.
    inputs("inputs_storage_long.pt", tuple_of(ok), {"0": b"\0" * (2 << 20)},
           "storage '0' declares 20 elements of torch.float32 (80 bytes) but its record holds 2097152")
    # A list appended into itself: deeper than any limit when walked.
    inputs("inputs_cycle.pt", b"]" + memo_put(0) + b"(" + memo_get(0) + b"e\x85", {},
           "nested more than 256 levels deep, or containing themselves")
    # 250 levels of (t, t) pairs: 2^250 leaves if walked as a tree, each object converted once here.
    pairs = b")" + memo_put(0) + b"0"
    for i in range(1, 251):
        pairs += memo_get(i - 1) + memo_get(i - 1) + b"\x86" + memo_put(i) + b"0"
    inputs("inputs_shared_pairs.pt", pairs + memo_get(250) + b"\x85", {}, "inputs do not match the program")
    # A pickle in the example inputs: read by the same rules when the program is read with its weights.
    for file, body, expect in [("example_inputs_global.pt2", b"cos\nsystem\n" + pickle_str("id") + b"\x85R",
                                "example inputs: archive/data.pkl: offset 2: global 'os.system' is not one"),
                               ("example_inputs_memo.pt2", memo_bomb, "example inputs: archive/data.pkl: offset 3: memo index")]:
        with_entry(good, file, "/data/sample_inputs/model.pt", torch_save(body, {}))
        case(cls, file, ["run", "{file}", "--random"], 1, expect)


def nesting_cases(good):
    """Deep structure in every form a user controls, refused before it is walked."""
    cls = "nesting"

    def spec_json(file, text, expect):
        write(file, text)
        case(cls, file, ["check", "{dir}/good.pt2", "--spec-json", "@{file}"], 2, expect)

    spec_json("spec_json_deep_inputs.json", b'{"inputs": ' + b"[" * 200000 + b"]" * 200000 + b"}",
              "nested more than 200 levels deep")
    spec_json("spec_json_deep_dims.json", b'{"dims": ' + b'{"a": ' * 200000 + b"1" + b"}" * 200000 + b"}",
              "nested more than 200 levels deep")
    spec_json("spec_json_deep_unclosed.json", b'{"inputs": [{"dims": ' + b"[" * 300000, "nested more than 200 levels deep")

    # A pytree spec is kept as the text torch wrote and written back as it is: never walked.
    def deep_in_spec(doc):
        doc["graph_module"]["module_call_graph"][0]["signature"]["in_spec"] = "[" * 200000 + "]" * 200000
    with_model(good, "deep_in_spec.pt2", deep_in_spec)
    case(cls, "deep_in_spec.pt2", ["decompose", "{file}", "--ir", "functional", "--out", "{dir}/deep_in_spec_out.pt2"], 0,
         "ExportedProgram", "stdout")


def error_text_cases(good):
    """Errors the libraries would word: said in our words, with the place."""
    cls = "errors"

    def spec_json(file, text, expect):
        write(file, text)
        case(cls, file, ["check", "{dir}/good.pt2", "--spec-json", "@{file}"], 2, expect)

    spec_json("spec_json_form_number.json", b'{"form": 3}', "JSON spec, form: expected a string, got an integer")
    spec_json("spec_json_dim_not_object.json", b'{"inputs": [{"name": "x", "dims": [3]}]}',
              "JSON spec, inputs[0].dims[0]: expected an object, got an integer")
    spec_json("spec_json_kind_number.json", b'{"inputs": [{"name": "x", "dims": [{"kind": 1}]}]}',
              "JSON spec, inputs[0].dims[0].kind: expected a string, got an integer")
    spec_json("spec_json_min_too_large.json", b'{"dims": {"d": {"min": 18446744073709551615}}}',
              "JSON spec, dims.d.min: integer out of the int64 range")
    spec_json("spec_json_bad_utf8.json", b'{"inputs": [{"name": "\xff"}]}', "line 1, column 23: JSON spec not valid JSON")
    spec_json("spec_json_not_json.json", b'{\n  "form": dict\n}', "line 2, column 11: JSON spec not valid JSON")
    # Found by fuzz_spec_json: nlohmann throws out_of_range, not parse_error, for a number past double's range.
    spec_json("spec_json_number_overflow.json", b'{"dims": {"d": {"min": 4e6566}}}',
              "JSON spec: not valid JSON: number overflow parsing '4e6566'")
    # Numbers in a file's text that do not fit an int: said by us, not by std::stoi ("stoi").
    def huge_line(doc):
        first_node(doc)["metadata"]["stack_trace"] = 'File "/x.py", line 99999999999, in forward\n    x = 1'
    with_model(good, "stack_trace_line_overflow.pt2", huge_line)
    case(cls, "stack_trace_line_overflow.pt2", ["print", "{file}"], 0,
         "# No stacktrace found for following nodes\n            linear:", "stdout")

    def huge_index(doc):
        doc["guards_code"] = ["L['x'].size()[99999999999] <= 16", "L['x'].size()[abc] <= 16"]
    with_model(good, "guard_index_overflow.pt2", huge_index)
    case(cls, "guard_index_overflow.pt2", ["check", "{file}"], 0, "status: ok", "stdout")
    write("spec_bad_utf8.txt", b"dynamic_shapes = {'\xff': None}")
    case(cls, "spec_bad_utf8.txt", ["check", "{dir}/good.pt2", "--spec", "@{file}", "--json"], 2,
         "line 1, column 20: the spec is not valid UTF-8 (byte 0xff)", "stdout")
    case(cls, "spec_bad_utf8.txt", ["check", "{dir}/good.pt2", "--spec", "@{file}"], 2,
         "line 1, column 20: the spec is not valid UTF-8 (byte 0xff)")


def sized_programs():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    import sized_programs as module
    return module


def declared_size_cases(good):
    """A program's declared sizes cost what reading them costs, not their square."""
    sized = sized_programs()
    sized.write_program(good, path("rank_200k.pt2"), "rank", 200000)
    for args, expect in [(["print", "{file}"], "relu"), (["check", "{file}"], "ok"),
                         (["decompose", "{file}", "--ir", "core"], "relu"), (["run", "{file}", "--random"], "output 0")]:
        case("linear_time", "rank_200k.pt2", args, 0, expect, "stdout", seconds=20)
    sized.write_program(good, path("inputs_100k.pt2"), "inputs", 100000)
    case("linear_time", "inputs_100k.pt2", ["check", "{file}"], 0, "ok", "stdout", seconds=30)


def memory_files(good):
    """Not cases: the programs the suite measures a run's peak memory on. A
    256 MiB float32 input summed to a scalar (random, and from an inputs file),
    and the same program over 2 elements (the baseline)."""
    sized = sized_programs()
    elements = 64 << 20
    sized.write_program(good, path("sum_256mib.pt2"), "elements", elements)
    sized.write_program(good, path("sum_small.pt2"), "elements", 2)
    pickle = tuple_of(tensor_pickle("FloatStorage", "0", elements, [elements], [1]))
    write("inputs_256mib.pt", torch_save(pickle, {"0": b"\0" * (elements * 4)}))
    write("inputs_small.pt", torch_save(tuple_of(tensor_pickle("FloatStorage", "0", 2, [2], [1])), {"0": b"\0" * 8}))


def compiled_cases(good):
    """AOTInductor packages: read (metadata, sources, provenance) leniently and in
    bounded time and memory, a lying entry left out with a note, and the shared
    library never loaded: the packages' .so here is not even a library."""
    cls = "compiled"
    folder = "pkg/data/aotinductor/model/"

    def wrapper(constants="", launches=""):
        return ("AOTInductorModel::AOTInductorModel(...)\n"
                '    inputs_info_[0].name = "arg0_1";\n'
                '    constants_info_[0].name = "fc1_weight";\n'
                "    constants_info_[0].dtype = cached_torch_dtype_float32;\n"
                "    constants_info_[0].shape = {4, 10};\n" + constants +
                '    outputs_info_[0].name = "output0";\n'
                "void AOTInductorModel::run_impl(\n"
                "    // [Provenance debug handles] cpp_fused_relu_0:1\n"
                "    cpp_fused_relu_0((float*)(buf0.data_ptr()));\n" + launches +
                "} // AOTInductorModel::run_impl\n").encode()

    def package(name, wrapper_text=None, metadata=b'{"AOTI_DEVICE_KEY": "cpu"}', provenance=None, extra=()):
        items = [("pkg/archive_format", b"pt2"), ("pkg/archive_version", b"0")]
        if wrapper_text is not None:
            items.append((folder + "cw.wrapper.cpp", wrapper_text))
        items += [(folder + "cw.wrapper_metadata.json", metadata),
                  (folder + "ck.kernel.cpp", b'extern "C"  void  cpp_fused_relu_0(float* in_out_ptr0)\n{\n}\n'),
                  # Were it loaded, the load would fail: a run that succeeds did not load it.
                  (folder + "cw.wrapper.so", b"\x7fELF not a library")]
        if provenance is not None:
            items.append((folder + "kernel_information.json", provenance))
        write(name, zip_bytes(items + list(extra)))

    package("pkg_only.pt2", wrapper())
    case(cls, "pkg_only.pt2", ["print", "{file}"], 1, "with no exported program: compiled model 'model'")
    case(cls, "pkg_only.pt2", ["info", "{file}"], 0, "wrapper.so  18 B  (not loaded)", "stdout")
    case(cls, "pkg_only.pt2", ["kernels", "{file}", "--source", "cw.wrapper.so"], 2, "is a library file, not a source")
    case(cls, "pkg_only.pt2", ["info", "{file}", "--program-file", "{dir}/no_such.pt2"], 1, "no such file")
    package("pkg_no_wrapper.pt2")
    case(cls, "pkg_no_wrapper.pt2", ["info", "{file}"], 0, "no wrapper source (*.wrapper.cpp)", "stdout")
    package("pkg_bad_metadata.pt2", wrapper(), metadata=b'{"AOTI_DEVICE_KEY": [1, 2')
    case(cls, "pkg_bad_metadata.pt2", ["info", "{file}"], 0, "(metadata left out)", "stdout")
    package("pkg_deep_provenance.pt2", wrapper(), provenance=b"[" * 100000 + b"]" * 100000)
    case(cls, "pkg_deep_provenance.pt2", ["info", "{file}"], 0, "(kernel provenance left out)", "stdout")
    package("pkg_lying_provenance.pt2", wrapper(),
            provenance=b'{"cpp_fused_relu_0:1": {"pre_grad_nodes": 5}, "x:2": {"pre_grad_nodes": ["relu"]}}')
    case(cls, "pkg_lying_provenance.pt2", ["info", "{file}"], 0, "1 kernel of another shape left out", "stdout")
    package("pkg_big_source.pt2", wrapper(launches="    // padding\n" * 4096))
    case(cls, "pkg_big_source.pt2", ["info", "{file}", "--limit", "source-bytes=16K"], 1,
         "over the source-bytes limit of 16384")
    # A constant index far past the next one: left out, never allocated.
    package("pkg_index_lies.pt2", wrapper(constants='    constants_info_[99999999999].name = "x";\n' * 1000))
    case(cls, "pkg_index_lies.pt2", ["info", "{file}"], 0, "1000 input, output or constant lines out of order",
         "stdout", seconds=10)
    # 200,000 launches, each with its provenance: read in about the time it takes to read them.
    launches = "".join("    // [Provenance debug handles] cpp_fused_k_%d:%d\n    cpp_fused_k_%d(buf);\n" % (i, i + 2, i)
                       for i in range(200000))
    prov = json.dumps({"cpp_fused_k_%d:%d" % (i, i + 2): {"pre_grad_nodes": ["relu"]} for i in range(200000)})
    package("pkg_many_kernels.pt2", wrapper(launches=launches), provenance=prov.encode())
    case("linear_time", "pkg_many_kernels.pt2", ["info", "{file}"], 0, "kernels: 200001 launches", "stdout",
         seconds=30)
    # The program beside its compiled model: commands run the program, never the package's library.
    package("pkg_with_program.pt2", wrapper(),
            provenance=b'{"cpp_fused_relu_0:1": {"pre_grad_nodes": ["relu", "not_there"]}}',
            extra=[(n.replace(n.split("/")[0], "pkg", 1), d) for n, d in entries(good)
                   if not n.endswith("archive_format") and not n.endswith("archive_version")])
    case(cls, "pkg_with_program.pt2", ["run", "{file}", "--random"], 0, "output 0", "stdout")
    case(cls, "pkg_with_program.pt2", ["kernels", "{file}"], 0, "nodes: relu, not_there?  (provenance)", "stdout")


def capture_cases():
    """Capture folders and torch trace logs: read, never run; every path inside the folder."""
    cls = "capture"
    log_prefix = "V1203 12:00:00.000000 1 torch/_logging/structured.py:28] "

    def folder(name, manifest, attempt=b'{"index": 1, "function": "export", "ok": false}'):
        os.makedirs(path(name + "/attempt_001"), exist_ok=True)
        write(name + "/manifest.json", manifest)
        write(name + "/attempt_001/attempt.json", attempt)

    def manifest(dir_="attempt_001"):
        return json.dumps({"format": "exportlens-capture", "format_version": 1,
                           "attempts": [{"index": 1, "dir": dir_}]}).encode()

    folder("capture_escape", manifest("../../../../etc"))
    case(cls, "capture_escape", ["info", "{file}"], 1, "lies outside the capture folder")
    folder("capture_symlink", manifest("linked"))
    if not os.path.lexists(path("capture_symlink/linked")):
        os.symlink("/", path("capture_symlink/linked"))
    case(cls, "capture_symlink", ["info", "{file}"], 1, "lies outside the capture folder")
    folder("capture_deep_manifest", b'{"format": "exportlens-capture", "format_version": 1, "attempts": ' +
           b"[" * 300000 + b"]" * 300000 + b"}")
    case(cls, "capture_deep_manifest", ["info", "{file}"], 1, "nested 300001 levels deep")
    folder("capture_attempt_not_json", manifest(), b'{"index": 1, "call_site": ')
    case(cls, "capture_attempt_not_json", ["print", "{file}"], 1, "attempt.json: invalid JSON")
    folder("capture_no_program", manifest())
    case(cls, "capture_no_program", ["print", "{file}"], 1, "attempt 1 has no program")
    folder("capture_attempt_index", manifest())
    case(cls, "capture_attempt_index", ["print", "{file}", "--program", "99999999999999999999"], 2, "no attempt '99999999999999999999'")
    # A log line whose JSON is nested 100,000 deep is skipped with a note; the rest is read.
    write("log_deep_event.log", (log_prefix + '{"a": ' * 100000 + "1" + "}" * 100000 + "\n").encode())
    case(cls, "log_deep_event.log", ["info", "{file}"], 0, "JSON nested 100000 levels deep", stream="stdout")
    # Graph text (a logged program) with an expression 100,000 parentheses deep: that line is left out.
    graph = log_prefix + '{"exported_program": {}, "has_payload": "x"}\n'
    write("log_deep_code.log", (graph + "\tdef forward(self, x):\n\t    y = " + "(" * 100000 + "x" + ")" * 100000 +
                                "\n\t    return (y,)\n").encode())
    case(cls, "log_deep_code.log", ["print", "{file}"], 0, "def forward(self, x)", stream="stdout")
    # 200,000 statements of graph text: read in about the time it takes to read them.
    write("log_long_code.log", (graph + "\tdef forward(self, x):\n" + "".join(
        "\t    x%d = torch.ops.aten.add.Tensor(%s, 1)\n" % (i, "x%d" % (i - 1) if i else "x") for i in range(200000)) +
        "\t    return (x199999,)\n").encode())
    case(cls, "log_long_code.log", ["print", "{file}"], 0, "x199999", stream="stdout", seconds=30)
    # A .log whose first line is no trace event is not taken for one.
    write("log_stray_lines.log", b"\tpayload with no event\nnot a log line\n")
    case(cls, "log_stray_lines.log", ["info", "{file}"], 1, "not a program source")


def main():
    global OUT
    good, OUT = sys.argv[1], sys.argv[2]
    os.makedirs(OUT, exist_ok=True)
    raw = open(good, "rb").read()
    write("good.pt2", raw)
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engine",
                                                 "make_bad_archives.py"), good, OUT], check=True)
    basic_cases()
    zip_cases(good, raw)
    json_cases(good)
    metadata_cases(good)
    graph_cases(good)
    op_cases(good)
    arithmetic_cases(good)
    inputs_cases(good)
    pickled_weight_cases(good)
    spec_cases(good)
    limits_cases(good)
    allocation_cases(good)
    pickle_bound_cases(good)
    nesting_cases(good)
    error_text_cases(good)
    declared_size_cases(good)
    memory_files(good)
    capture_cases()
    compiled_cases(good)
    with open(path("catalogue.json"), "w") as f:
        json.dump(CASES, f, indent=1)
    counts = {}
    for c in CASES:
        counts[c["class"]] = counts.get(c["class"], 0) + 1
    print("catalogue: %d cases, %d files: %s" % (len(CASES), len({c["file"] for c in CASES}),
                                                  ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


if __name__ == "__main__":
    main()
