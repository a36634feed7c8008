//! The weights file of the human move model v7 (`profiles/human/maia3-5m-v7.bin`), written once from
//! the ONNX export by `bench/human-model/maia3_convert.py` (which documents the format and the
//! tensor names):
//!
//! ```text
//! magic "SPMAIA3\0" · version u32 = 1 · count u32 ·
//! count × (name_len u16 · name · ndim u8 · dims u32×ndim · zero pad to 4 · f32 data) ·
//! blake3 of all the bytes before it (32 bytes)
//! ```
//!
//! All little-endian. Reading checks the magic, version, checksum, that every tensor the network
//! needs is there with its exact shape, and that nothing is left over; any failure is an error
//! that says what is wrong.

use std::collections::BTreeMap;

pub const MAGIC: &[u8; 8] = b"SPMAIA3\0";
pub const VERSION: u32 = 1;
/// Transformer layers of Maia-3 5M.
pub const LAYERS: usize = 8;

/// Named f32 tensors, as stored (row-major).
pub struct Tensors {
    map: BTreeMap<String, (Vec<usize>, Vec<f32>)>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!("truncated at byte {} (reading {what})", self.pos));
        };
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().unwrap()))
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
}

/// The shape every tensor must have (the network's names and sizes).
pub fn expected_shapes() -> BTreeMap<String, Vec<usize>> {
    let mut m = BTreeMap::new();
    let mut put = |name: &str, dims: &[usize]| {
        m.insert(name.to_string(), dims.to_vec());
    };
    put("embed.elo_low", &[128]);
    put("embed.elo_high", &[128]);
    put("embed.mat", &[352, 256]);
    put("embed.b", &[256]);
    put("gab.w", &[4096, 64]);
    for i in 0..LAYERS {
        let p = |s: &str| format!("layer{i}.{s}");
        put(&p("sm2.w"), &[64, 256]);
        put(&p("sm2.b"), &[64]);
        put(&p("ln1.w"), &[64]);
        put(&p("ln1.b"), &[64]);
        put(&p("sm3.w"), &[512, 64]);
        put(&p("sm3.b"), &[512]);
        put(&p("ln2.w"), &[512]);
        put(&p("ln2.b"), &[512]);
        put(&p("qkv.mat"), &[256, 768]);
        put(&p("out.mat"), &[256, 256]);
        put(&p("norm1.w"), &[256]);
        put(&p("norm2.w"), &[256]);
        put(&p("ffn1.mat"), &[256, 512]);
        put(&p("ffn1.b"), &[512]);
        put(&p("ffn2.mat"), &[512, 256]);
        put(&p("ffn2.b"), &[256]);
    }
    put("final_norm.w", &[256]);
    put("final_norm.b", &[256]);
    put("head.q.mat", &[256, 256]);
    put("head.k.mat", &[256, 256]);
    put("head.promo.mat", &[256, 4]);
    put("value.ln.w", &[256]);
    put("value.ln.b", &[256]);
    put("value.hid.w", &[256, 256]);
    put("value.hid.b", &[256]);
    put("value.out.w", &[3, 256]);
    put("value.out.b", &[3]);
    put("ponder.hid.w", &[256, 256]);
    put("ponder.hid.b", &[256]);
    put("ponder.out.w", &[1, 256]);
    put("ponder.out.b", &[1]);
    m
}

impl Tensors {
    /// Parses and validates a weights file.
    pub fn parse(bytes: &[u8]) -> Result<Tensors, String> {
        if bytes.len() < 8 + 8 + 32 || &bytes[..8] != MAGIC {
            return Err("not a Maia-3 weights file (bad magic)".to_string());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 32);
        if blake3::hash(body).as_bytes() != sum {
            return Err("checksum mismatch: the weights file is corrupt".to_string());
        }
        let mut r = Reader { bytes: body, pos: 8 };
        let version = r.u32("version")?;
        if version != VERSION {
            return Err(format!("weights file format version {version}, this engine reads {VERSION}"));
        }
        let count = r.u32("count")? as usize;
        let mut map = BTreeMap::new();
        for _ in 0..count {
            let len = r.u16("name length")? as usize;
            let name = std::str::from_utf8(r.take(len, "name")?).map_err(|_| "tensor name is not UTF-8")?.to_string();
            let ndim = r.u8("ndim")? as usize;
            let mut dims = Vec::with_capacity(ndim);
            for _ in 0..ndim {
                dims.push(r.u32("dims")? as usize);
            }
            let pad = (4 - r.pos % 4) % 4;
            r.take(pad, "padding")?;
            let size = dims.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or("tensor too large")?;
            let raw = r.take(size.checked_mul(4).ok_or("tensor too large")?, &name)?;
            let data: Vec<f32> = raw.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
            if map.insert(name.clone(), (dims, data)).is_some() {
                return Err(format!("tensor {name} appears twice"));
            }
        }
        if r.pos != body.len() {
            return Err(format!("{} unexpected bytes after the last tensor", body.len() - r.pos));
        }
        let want = expected_shapes();
        for (name, dims) in &want {
            match map.get(name) {
                None => return Err(format!("tensor {name} is missing")),
                Some((d, _)) if d != dims => {
                    return Err(format!("tensor {name} has shape {d:?}, expected {dims:?}"));
                }
                Some(_) => {}
            }
        }
        if let Some(extra) = map.keys().find(|k| !want.contains_key(*k)) {
            return Err(format!("unexpected tensor {extra}"));
        }
        if let Some((name, _)) = map.iter().find(|(_, (_, d))| d.iter().any(|x| !x.is_finite())) {
            return Err(format!("tensor {name} holds a non-finite value"));
        }
        Ok(Tensors { map })
    }

    /// The data of a tensor the parser checked.
    pub fn get(&self, name: &str) -> &[f32] {
        &self.map[name].1
    }

    /// A stored [rows, cols] matrix transposed to [cols, rows] (a Linear's [out, in] weight turned
    /// into the [in, out] layout the matrix product streams).
    pub fn transposed(&self, name: &str) -> Vec<f32> {
        let (dims, d) = &self.map[name];
        let (rows, cols) = (dims[0], dims[1]);
        let mut t = vec![0f32; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                t[c * rows + r] = d[r * cols + c];
            }
        }
        t
    }
}
