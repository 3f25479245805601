import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small Go program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
package server

import (
	"fmt"
	str "strings"
)

import "os"

const Version = "1"

var (
	debug   = false
	verbose bool
)

type Handler func(w Writer)

type Server struct {
	Name string
}

type Store interface {
	Get(key string) string
}

func NewServer(name string) *Server {
	return &Server{Name: str.ToUpper(name)}
}

func (s *Server) Handle(req string) error {
	fmt.Println(req)
	return os.ErrNotExist
}

func (Server) Close() {}
`.slice(1);

describe('tree-sitter facts: Go', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('server/server.go', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "constant Version 10-10",
      "variable debug 13-13",
      "variable verbose 14-14",
      "type Handler 17-17",
      "struct Server 19-21",
      "interface Store 23-25",
      "function NewServer 27-29",
      "method Server.Handle 31-34",
      "method Server.Close 36-36",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["Handle<Server", "Close<Server"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('server/server.go', PROGRAM);
    expect(facts.imports).toEqual(["fmt", "strings", "os"]);
    expect(facts.calls).toEqual(["ToUpper", "Println"]);
  });
});
