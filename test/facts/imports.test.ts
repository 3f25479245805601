import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { code } from './outline.js';

const importsOf = (path: string, text: string): string[] => extractFacts(path, text).imports;

describe('imports', () => {
  it('TypeScript/JavaScript: static, multi-line, re-exports, require and dynamic import', () => {
    const ts = code`
import { readFile } from 'node:fs/promises';
import type { User } from './types';
import * as path from "path";
import {
  a,
  b,
} from '../lib/ab';
import './side-effect';
export { c } from './c';
export * from './all';
const fs = require('fs');
// import nope from 'nope';
const s = "import fake from 'fake'";
const lazy = () => import('./lazy');
`;
    expect(importsOf('src/x.ts', ts)).toEqual(['node:fs/promises', './types', 'path', '../lib/ab', './side-effect', './c', './all', 'fs', './lazy']);
  });

  it('Python: dotted modules, relative imports, several per line', () => {
    const py = code`
import os, sys as system
import a.b.c
from .models import User
from ..util.helpers import (
    x,
)
from . import sibling
# import commented
`;
    expect(importsOf('pkg/mod.py', py)).toEqual(['os', 'sys', 'a.b.c', '.models', '..util.helpers', '.']);
  });

  it('Go: single imports and blocks with aliases', () => {
    const go = code`
package main

import "fmt"

import (
	"net/http"
	log "github.com/sirupsen/logrus"
)
`;
    expect(importsOf('main.go', go)).toEqual(['fmt', 'net/http', 'github.com/sirupsen/logrus']);
  });

  it('Rust: use paths and mod declarations', () => {
    const rs = code`
use std::collections::HashMap;
use crate::config::{Config, Mode};
pub use super::types::*;
mod parser;
pub mod lexer;
mod inline { }
`;
    expect(importsOf('src/lib.rs', rs)).toEqual(['std::collections::HashMap', 'crate::config', 'super::types', 'parser', 'lexer']);
  });

  it('Java, Kotlin and C#', () => {
    expect(importsOf('A.java', 'package x;\nimport java.util.List;\nimport static org.junit.Assert.assertEquals;\n')).toEqual(['java.util.List', 'org.junit.Assert.assertEquals']);
    expect(importsOf('A.kt', 'import kotlinx.coroutines.launch\nimport app.model.User as U\n')).toEqual(['kotlinx.coroutines.launch', 'app.model.User']);
    expect(importsOf('A.cs', 'using System;\nusing static System.Math;\nusing IO = System.IO;\n')).toEqual(['System', 'System.Math', 'System.IO']);
  });

  it('C/C++: quoted includes only', () => {
    const c = '#include <stdio.h>\n#include "util.h"\n  #  include "net/socket.h"\n// #include "commented.h"\n';
    expect(importsOf('main.c', c)).toEqual(['util.h', 'net/socket.h']);
    expect(importsOf('main.cpp', '#include "widget.hpp"\n')).toEqual(['widget.hpp']);
  });

  it('Ruby, PHP and Lua', () => {
    expect(importsOf('a.rb', "require 'json'\nrequire_relative \"lib/thing\"\n# require 'nope'\n")).toEqual(['json', 'lib/thing']);
    expect(importsOf('a.php', "<?php\nuse App\\Models\\User;\nuse function App\\helper;\nrequire 'config.php';\n")).toEqual(['App\\Models\\User', 'App\\helper', 'config.php']);
    expect(importsOf('a.lua', 'local json = require("json")\nlocal u = require \'util\'\n')).toEqual(['json', 'util']);
  });
});
