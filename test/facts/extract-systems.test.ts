import { describe, expect, it } from 'vitest';
import { code, outline } from './outline.js';

describe('extractFacts: Go', () => {
  it('gives methods their receiver type as parent', () => {
    const go = code`
package server

import "fmt"

const Version = "1.0"

var (
	defaultPort = 8080
	mu          sync.Mutex
)

type Handler func(w http.ResponseWriter, r *http.Request)

type Server struct {
	Addr string
}

type Store interface {
	Get(key string) (string, error)
}

func (s *Server) Handle(path string, h Handler) {
	s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		h(w, r)
	})
}

func (l List[T]) Len() int { return len(l.items) }

func NewServer(addr string) *Server {
	raw := \`{ not a brace
	}\`
	fmt.Println(raw)
	return &Server{Addr: addr}
}
`;
    expect(outline('server/server.go', go)).toEqual([
      'constant Version 5-5',
      'variable defaultPort 8-8',
      'variable mu 9-9',
      'type Handler 12-12',
      'struct Server 14-16',
      'interface Store 18-20',
      'method Server.Handle 22-26',
      'method List.Len 28-28',
      'function NewServer 30-35',
    ]);
  });
});

describe('extractFacts: Rust', () => {
  it('reads impl blocks as methods of their type, and lifetimes as code', () => {
    const rs = code`
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub struct Token<'a> {
    text: &'a str,
}

pub enum Kind {
    Ident,
    Number(i64),
}

pub trait Visitor {
    fn visit(&mut self, t: &Token) -> bool;
}

impl<'a> Token<'a> {
    pub fn new(text: &'a str) -> Self {
        let c = '{';
        let s = r#"}"#;
        Token { text }
    }
}

impl<T: Display> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub(crate) async fn run<'a>(cfg: &'a Config) -> Result<(), Error>
where
    T: Send,
{
    Ok(())
}
`;
    expect(outline('src/token.rs', rs)).toEqual([
      'struct Token 3-6',
      'enum Kind 8-11',
      'trait Visitor 13-15',
      'method Visitor.visit 14-14',
      'method Token.new 18-22',
      'method Wrapper.fmt 26-28',
      'macro square 31-35',
      'function run 37-42',
    ]);
  });
});

describe('extractFacts: C and C++', () => {
  it('finds function definitions (not prototypes), records, typedefs and macros', () => {
    const c = code`
#include <stdio.h>
#include "util.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define SWAP(x, y) \\
    do { \\
        tmp = x; \\
    } while (0)

struct point {
    int x;
    int y;
};

typedef struct {
    char *name;
} person_t;

typedef int (*callback_t)(int);

static int helper(int a);

static int
helper(int a)
{
    const char *s = "}";
    char c = '}';
    return a + strlen(s);
}

int main(int argc, char **argv) {
    printf("%d\\n", helper(argc));
    return 0;
}

struct point *make_point(int x, int y) {
    return malloc(sizeof(struct point));
}
`;
    expect(outline('src/main.c', c)).toEqual([
      'macro MAX 4-4',
      'macro SWAP 5-8',
      'struct point 10-13',
      'struct person_t 15-17',
      'type callback_t 19-19',
      'function helper 23-29',
      'function main 31-34',
      'function make_point 36-38',
    ]);
  });

  it('reads C++ classes, out-of-line methods and namespaces', () => {
    const cpp = code`
namespace ui {
template <typename T>
class Widget : public Base {
public:
    Widget(int w) : width_(w) {}
    virtual ~Widget();
    int width() const { return width_; }
private:
    int width_;
};

void Widget::resize(int w, int h) {
    auto raw = R"x(a ) { b)x";
    width_ = w;
}
}  // namespace ui
`;
    expect(outline('src/widget.cpp', cpp)).toEqual([
      'class Widget 2-10',
      'method Widget.Widget 5-5',
      'method Widget.~Widget 6-6',
      'method Widget.width 7-7',
      'method Widget.resize 12-15',
    ]);
  });
});
