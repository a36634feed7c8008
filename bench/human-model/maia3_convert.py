#!/usr/bin/env python3
"""Converts the Maia-3 5M ONNX export into the engine's weights file (human move model v7).

    bench/py.sh bench/human-model/maia3_convert.py [ANCHOR_DIR] [OUT.bin]

ANCHOR_DIR defaults to ../shared/anchors/maia3 (the ONNX graph `maia3-5m.onnx` and its external
weights `maia3-5m.onnx.data`, both checked against the sha256 in that folder's README); OUT
defaults to profiles/human/maia3-5m-v7.bin. Needs onnx, onnxruntime, numpy and blake3 from
bench/requirements.txt (bench/py.sh installs them into bench/.venv).

What it does, in order:
1. Loads the graph and walks its nodes to find every weight by the role it plays (the exporter
   named many of them `val_NN`), asserting the structure the Rust forward pass
   (src/human/maia3/net.rs) implements: shapes, the constants (Elo clamp 0..5000, norm epsilon
   1e-5, attention scale sqrt(32), move-head scale 16, the eight rank-8 squares of the promotion
   head), and which matrices have a bias.
2. Writes every weight once, unchanged float32, under a name of our own (list below) into the
   file format below.
3. Self-check: reads the written file back, runs a plain numpy forward pass of the architecture on
   a few random and a few real inputs and compares its move logits with onnxruntime's (prints the
   max abs difference; fails above 1e-3). This is the executable description of the architecture.

File format (all little-endian):
    magic    8 bytes  b"SPMAIA3\\0"
    version  u32      1
    count    u32      number of tensors
    count times:
        name_len u16, name (UTF-8), ndim u8, dims u32 * ndim,
        zero bytes up to the next multiple of 4 of the file offset,
        data f32 * prod(dims), row-major (last dimension contiguous)
    checksum 32 bytes blake3 of every byte before it

Tensor names (PyTorch-style layouts: `*.w` of a Linear is [out, in]; `*.mat` is an ONNX MatMul
right-hand side, [in, out]):
    embed.elo_low [128], embed.elo_high [128]    rating embedding: r = clamp(elo,0,5000)/5000,
                                                 e = r*elo_low + (1-r)*elo_high
    embed.mat [352, 256], embed.b [256]          token projection of [tokens 96 | e(self) | e(oppo)]
    gab.w [4096, 64]                             shared by all layers: per-head 64x64 attention bias
    layer{i}.sm2.w [64,256] .sm2.b, .ln1.w/.b [64], .sm3.w [512,64] .sm3.b, .ln2.w/.b [512]
    layer{i}.qkv.mat [256,768]  layer{i}.out.mat [256,256]  (no biases)
    layer{i}.norm1.w [256], layer{i}.norm2.w [256]          (RMS norms, no bias)
    layer{i}.ffn1.mat [256,512] .ffn1.b, layer{i}.ffn2.mat [512,256] .ffn2.b
    final_norm.w/.b [256]
    head.q.mat [256,256], head.k.mat [256,256], head.promo.mat [256,4]
    value.ln.w/.b, value.hid.w [256,256] .hid.b, value.out.w [3,256] .out.b   (unused by the engine)
    ponder.hid.w [256,256] .hid.b, ponder.out.w [1,256] .out.b                (unused by the engine)
"""
import hashlib
import struct
import sys
from pathlib import Path

import blake3
import numpy as np
import onnx
from onnx import numpy_helper

MAGIC = b"SPMAIA3\0"
VERSION = 1
LAYERS = 8
SHA256 = {
    "maia3-5m.onnx": "e68e22eb346ee097769e88aac7b5c7a959b75b6155266cb0ac90c0b34616744b",
    "maia3-5m.onnx.data": "b8557e99ecc2bf56297928399a1c345a6c8aa2d4efaef657c9e4333f7d6f53ff",
}


def fail(msg):
    sys.exit(f"maia3_convert: {msg}")


def check(cond, msg):
    if not cond:
        fail(msg)


def load_graph(anchor):
    for name, want in SHA256.items():
        got = hashlib.sha256((anchor / name).read_bytes()).hexdigest()
        check(got == want, f"{name}: sha256 {got}, expected {want}")
    model = onnx.load(str(anchor / "maia3-5m.onnx"), load_external_data=True)
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:  # constants folded into nodes count as initializers here
        if node.op_type == "Constant":
            inits[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
    return model, inits


def scalar(inits, name):
    a = inits[name]
    check(a.size == 1, f"{name} is not a scalar")
    return float(a.reshape(()))


def extract(model, inits):
    """Finds each weight by its role in the graph; asserts what the forward pass assumes."""
    nodes = list(model.graph.node)
    consumers = {}
    for n in nodes:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    out = {}

    def take(name, key, shape):
        a = np.ascontiguousarray(inits[key], dtype=np.float32)
        check(a.dtype == np.float32 and list(a.shape) == list(shape), f"{name}: {key} has shape {a.shape}, expected {shape}")
        out[name] = a

    take("embed.elo_low", "elo_embedding_low.weight", [1, 128])
    take("embed.elo_high", "elo_embedding_high.weight", [1, 128])
    out["embed.elo_low"] = out["embed.elo_low"].reshape(128)
    out["embed.elo_high"] = out["embed.elo_high"].reshape(128)
    clips = [n for n in nodes if n.op_type == "Clip"]
    check(len(clips) == 2, "expected two Clip nodes (the two ratings)")
    for c in clips:
        check(scalar(inits, c.input[1]) == 0.0 and scalar(inits, c.input[2]) == 5000.0, "rating clamp is not 0..5000")
    take("embed.b", "token_projection.bias", [256])
    # MatMuls with a weight on the right, in graph order.
    mats = [n for n in nodes if n.op_type == "MatMul" and n.input[1] in inits]
    check(len(mats) == 1 + 4 * LAYERS + 3, f"found {len(mats)} weight MatMuls")
    take("embed.mat", mats[0].input[1], [352, 256])
    check(consumers[mats[0].output[0]][0].op_type == "Add" and "token_projection.bias" in consumers[mats[0].output[0]][0].input, "projection bias")
    for i in range(LAYERS):
        qkv, o, f1, f2 = mats[1 + 4 * i: 5 + 4 * i]
        p = f"transformer.layers.{i}."
        take(f"layer{i}.qkv.mat", qkv.input[1], [256, 768])
        check([c.op_type for c in consumers[qkv.output[0]]] == ["Split"], f"layer {i}: qkv has a bias?")
        take(f"layer{i}.out.mat", o.input[1], [256, 256])
        take(f"layer{i}.ffn1.mat", f1.input[1], [256, 512])
        check(p + "linear1.bias" in consumers[f1.output[0]][0].input, f"layer {i}: ffn1 bias")
        take(f"layer{i}.ffn2.mat", f2.input[1], [512, 256])
        check(p + "linear2.bias" in consumers[f2.output[0]][0].input, f"layer {i}: ffn2 bias")
        take(f"layer{i}.ffn1.b", p + "linear1.bias", [512])
        take(f"layer{i}.ffn2.b", p + "linear2.bias", [256])
        take(f"layer{i}.norm1.w", p + "norm1.weight", [256])
        take(f"layer{i}.norm2.w", p + "norm2.weight", [256])
        a = p + "self_attn."
        take(f"layer{i}.sm2.w", a + "sm2.weight", [64, 256])
        take(f"layer{i}.sm2.b", a + "sm2.bias", [64])
        take(f"layer{i}.ln1.w", a + "ln1.weight", [64])
        take(f"layer{i}.ln1.b", a + "ln1.bias", [64])
        take(f"layer{i}.sm3.w", a + "sm3.weight", [512, 64])
        take(f"layer{i}.sm3.b", a + "sm3.bias", [512])
        take(f"layer{i}.ln2.w", a + "ln2.weight", [512])
        take(f"layer{i}.ln2.b", a + "ln2.bias", [512])
    q, k, promo = mats[1 + 4 * LAYERS:]
    take("head.q.mat", q.input[1], [256, 256])
    take("head.k.mat", k.input[1], [256, 256])
    take("head.promo.mat", promo.input[1], [256, 4])
    # The attention-bias matrix: one Transpose of layer 7's gab_weight, used by every layer.
    gab_t = [n for n in nodes if n.op_type == "Transpose" and n.input[0] == "transformer.layers.7.self_attn.gab_weight"]
    check(len(gab_t) == 1, "gab transpose")
    users = [n for n in consumers[gab_t[0].output[0]] if n.op_type == "MatMul"]
    check(len(users) == LAYERS, f"gab weight used by {len(users)} layers, expected {LAYERS}")
    take("gab.w", "transformer.layers.7.self_attn.gab_weight", [4096, 64])
    check(not any(f"layers.{i}.self_attn.gab_weight" in inits for i in range(7)), "per-layer gab weights")
    take("final_norm.w", "transformer.norm.weight", [256])
    take("final_norm.b", "transformer.norm.bias", [256])
    # Constants the Rust code hard-codes.
    divs = {round(scalar(inits, n.input[1]), 6) for n in nodes if n.op_type == "Div" and n.input[1] in inits and inits[n.input[1]].size == 1}
    check(divs == {5000.0, round(2 ** 0.5, 6), round(32 ** 0.5, 6), 16.0}, f"unexpected divisors {divs}")
    eps = {round(scalar(inits, n.input[1]), 9) for n in nodes if n.op_type == "Add" and n.input[1] in inits and inits[n.input[1]].size == 1 and scalar(inits, n.input[1]) < 1e-3}
    check(eps == {1e-5}, f"RMS epsilon {eps}")
    for n in nodes:
        if n.op_type == "LayerNormalization":
            e = [a.f for a in n.attribute if a.name == "epsilon"][0]
            check(abs(e - 1e-5) < 1e-12, "LayerNorm epsilon")
        if n.op_type == "Softmax":
            check([a.i for a in n.attribute if a.name == "axis"] == [-1], "softmax axis")
    g = [n for n in nodes if n.op_type == "GatherND"][0]
    check(inits[g.input[1]].reshape(-1).tolist() == list(range(56, 64)), "promotion head squares")
    take("value.ln.w", "last_ln.weight", [256])
    take("value.ln.b", "last_ln.bias", [256])
    for src, dst, shape in [("fc_value_hid", "value.hid", [256, 256]), ("fc_value", "value.out", [3, 256]),
                            ("fc_ponder_hid", "ponder.hid", [256, 256]), ("fc_ponder", "ponder.out", [1, 256])]:
        take(dst + ".w", src + ".weight", shape)
        take(dst + ".b", src + ".bias", [shape[0]])
    n_params = sum(a.size for a in out.values())
    # The README's 5,230,145 counts the graph's 61 shape and scalar constants too.
    check(n_params == 5230084, f"{n_params} parameters, expected 5,230,084")
    return out


def write(tensors, path):
    buf = bytearray(MAGIC + struct.pack("<II", VERSION, len(tensors)))
    for name, a in tensors.items():
        nb = name.encode()
        buf += struct.pack("<H", len(nb)) + nb + struct.pack("<B", a.ndim)
        buf += b"".join(struct.pack("<I", d) for d in a.shape)
        buf += b"\0" * (-len(buf) % 4)
        buf += a.astype("<f4").tobytes()
    buf += blake3.blake3(bytes(buf)).digest()
    path.write_bytes(bytes(buf))
    return bytes(buf)


def read(path):
    data = path.read_bytes()
    check(data[:8] == MAGIC, "magic")
    check(blake3.blake3(data[:-32]).digest() == data[-32:], "checksum")
    version, count = struct.unpack_from("<II", data, 8)
    check(version == VERSION, "version")
    pos, out = 16, {}
    for _ in range(count):
        (nl,) = struct.unpack_from("<H", data, pos)
        name = data[pos + 2: pos + 2 + nl].decode()
        pos += 2 + nl
        nd = data[pos]
        dims = struct.unpack_from(f"<{nd}I", data, pos + 1)
        pos += 1 + 4 * nd
        pos += -pos % 4
        size = int(np.prod(dims))
        out[name] = np.frombuffer(data, "<f4", size, pos).reshape(dims)
        pos += 4 * size
    check(pos == len(data) - 32, "trailing bytes")
    return out


def gelu(x):
    from math import erf
    return 0.5 * x * (1.0 + np.vectorize(erf)(x / np.sqrt(2.0)))


def layer_norm(x, w, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-5) * w + b


def rms_norm(x, w):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5) * w


def forward(t, tokens, self_elo, oppo_elo):
    """Move logits [4352] of one input (tokens [64, 96]), float64 numpy: the architecture."""
    t = {k: v.astype(np.float64) for k, v in t.items()}

    def elo(e):
        r = min(max(float(e), 0.0), 5000.0) / 5000.0
        return r * t["embed.elo_low"] + (1.0 - r) * t["embed.elo_high"]

    inp = np.concatenate([tokens, np.tile(elo(self_elo), (64, 1)), np.tile(elo(oppo_elo), (64, 1))], 1)
    x = inp @ t["embed.mat"] + t["embed.b"]
    for i in range(LAYERS):
        p = f"layer{i}."
        m = x.mean(0)
        g = layer_norm(gelu(t[p + "sm2.w"] @ m + t[p + "sm2.b"]), t[p + "ln1.w"], t[p + "ln1.b"])
        h = layer_norm(gelu(t[p + "sm3.w"] @ g + t[p + "sm3.b"]), t[p + "ln2.w"], t[p + "ln2.b"])
        bias = (h.reshape(8, 64) @ t["gab.w"].T).reshape(8, 64, 64)
        qkv = x @ t[p + "qkv.mat"]
        heads = []
        for hd in range(8):
            q, k, v = (qkv[:, j * 256 + hd * 32: j * 256 + hd * 32 + 32] for j in range(3))
            s = q @ k.T / np.sqrt(32.0) + bias[hd]
            s = np.exp(s - s.max(1, keepdims=True))
            heads.append((s / s.sum(1, keepdims=True)) @ v)
        x = rms_norm(x + np.concatenate(heads, 1) @ t[p + "out.mat"], t[p + "norm1.w"])
        f = gelu(x @ t[p + "ffn1.mat"] + t[p + "ffn1.b"]) @ t[p + "ffn2.mat"] + t[p + "ffn2.b"]
        x = rms_norm(x + f, t[p + "norm2.w"])
    x = layer_norm(x, t["final_norm.w"], t["final_norm.b"])
    q, k = x @ t["head.q.mat"], x @ t["head.k.mat"]
    sq = q @ k.T / 16.0  # [from, to]
    promo = (k[56:64] @ t["head.promo.mat"]) * 16.0  # [to file, piece q r b n]
    extra = [sq[48 + ff, 56 + tf] + promo[tf, p] for ff in range(8) for tf in range(8) for p in range(4)]
    return np.concatenate([sq.reshape(4096), np.array(extra)])


def self_check(tensors, anchor):
    import onnxruntime as ort

    sess = ort.InferenceSession(str(anchor / "maia3-5m.onnx"), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(61)
    worst = 0.0
    for case in range(4):
        tokens = np.zeros((64, 96), np.float32)
        for s in range(64):  # a random sparse board per history slot
            for h in range(8):
                if rng.random() < 0.4:
                    tokens[s, h * 12 + rng.integers(12)] = 1.0
        se, oe = int(rng.integers(-200, 5500)), int(rng.integers(-200, 5500))
        ref = sess.run(["logits_move"], {"tokens": tokens[None], "self_elo": np.array([se], np.int64), "oppo_elo": np.array([oe], np.int64)})[0][0]
        ours = forward(tensors, tokens, se, oe)
        d = float(np.abs(ours - ref).max())
        worst = max(worst, d)
        print(f"self-check case {case}: elo ({se}, {oe}) max |numpy - onnxruntime| = {d:.2e}")
    check(worst <= 1e-3, f"self-check failed: {worst}")


def main():
    root = Path(__file__).resolve().parents[2]
    anchor = Path(sys.argv[1]) if len(sys.argv) > 1 else root.parent / "shared" / "anchors" / "maia3"
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "profiles" / "human" / "maia3-5m-v7.bin"
    model, inits = load_graph(anchor)
    tensors = extract(model, inits)
    data = write(tensors, out)
    print(f"wrote {out}: {len(tensors)} tensors, {len(data)} bytes, blake3 {blake3.blake3(data).hexdigest()}")
    back = read(out)
    check(list(back) == list(tensors) and all(np.array_equal(back[k], tensors[k]) for k in tensors), "read-back differs")
    self_check(back, anchor)


if __name__ == "__main__":
    main()
