import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small Rust program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
use std::collections::HashMap;
use crate::config::{Config, Mode};
mod parser;
extern crate serde;

pub const LIMIT: usize = 10;
static mut COUNT: u32 = 0;

#[derive(Debug)]
pub struct Point {
    x: i32,
}

pub enum Shape {
    Circle(f64),
}

pub trait Area {
    fn area(&self) -> f64;
    fn name(&self) -> String {
        String::from("shape")
    }
}

impl Area for Point {
    fn area(&self) -> f64 {
        compute(self.x)
    }
}

impl<T> Wrapper<T> {
    pub fn new(v: T) -> Self {
        Wrapper { v }
    }
}

pub fn run(cfg: &Config) -> i32 {
    let m: HashMap<String, i32> = HashMap::new();
    helper::go(cfg);
    println!("{}", m.len());
    0
}

macro_rules! square {
    ($x:expr) => { $x * $x };
}

pub type Map = HashMap<String, i32>;

mod inner {
    pub fn nested() {}
}
`.slice(1);

describe('tree-sitter facts: Rust', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('src/shapes.rs', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "constant LIMIT 6-6",
      "constant COUNT 7-7",
      "struct Point 9-12",
      "enum Shape 14-16",
      "trait Area 18-23",
      "method Area::area 19-19",
      "method Area::name 20-22",
      "method Point::area 26-28",
      "method Wrapper::new 32-34",
      "function run 37-42",
      "macro square 44-46",
      "type Map 48-48",
      "module inner 50-52",
      "function inner::nested 51-51",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["area<Area", "name<Area", "area<Point", "new<Wrapper", "nested<inner"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('src/shapes.rs', PROGRAM);
    expect(facts.imports).toEqual(["std::collections::HashMap", "crate::config", "parser", "serde"]);
    expect(facts.calls).toEqual(["from", "compute", "new", "go"]);
  });
});
