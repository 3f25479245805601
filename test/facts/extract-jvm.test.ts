import { describe, expect, it } from 'vitest';
import { code, outline } from './outline.js';

describe('extractFacts: Java', () => {
  it('reads classes, nested types, constructors and methods with annotations', () => {
    const java = code`
package com.example.app;

import java.util.List;

/**
 * Service { with a brace in javadoc
 */
@Service
public class UserService implements Runnable {
    private static final String BRACE = "}";
    private char c = '{';

    public UserService(Repo repo) {
        this.repo = repo;
    }

    @Override
    public void run() {
        for (int i = 0; i < 10; i++) {
            process(i);
        }
    }

    public static <T> List<T> findAll(Class<T> type)
            throws IOException {
        return repo.query(type);
    }

    private static class Node {
        Node next() { return null; }
    }

    enum Mode { A, B }
}

interface Repo {
    <T> List<T> query(Class<T> type);
}
`;
    expect(outline('src/main/java/com/example/app/UserService.java', java)).toEqual([
      'class UserService 8-34',
      'method UserService.UserService 13-15',
      'method UserService.run 17-22',
      'method UserService.findAll 24-27',
      'class UserService.Node 29-31',
      'method Node.next 30-30',
      'enum UserService.Mode 33-33',
      'interface Repo 36-38',
      'method Repo.query 37-37',
    ]);
  });
});

describe('extractFacts: Kotlin', () => {
  it('reads classes, objects, functions and expression bodies', () => {
    const kt = code`
package app

const val LIMIT = 5

data class Point(val x: Int, val y: Int)

enum class Color { RED, GREEN }

class UserService(private val repo: Repo) : Base() {
    companion object {
        fun create(): UserService = UserService(Repo())
    }

    suspend fun load(id: Long): User {
        return repo.find(id) ?: throw NotFound()
    }
}

fun main() {
    println("hi")
}
`;
    expect(outline('src/App.kt', kt)).toEqual([
      'constant LIMIT 3-3',
      'class Point 5-5',
      'enum Color 7-7',
      'class UserService 9-17',
      'class UserService.Companion 10-12',
      'method Companion.create 11-11',
      'method UserService.load 14-16',
      'function main 19-21',
    ]);
  });
});

describe('extractFacts: Scala', () => {
  it('reads classes, traits, objects, defs, vals and types, and no def of a def\'s body', () => {
    const scala = code`
package org.scalafmt.config

import scala.collection.{mutable, immutable}

/** A comment with a brace { */
sealed abstract class Newlines(val source: String) {
  def isKeep: Boolean = source == "keep"

  private[config] lazy val topLevel: Int = {
    def inner(x: Int) = x + 1
    inner(1)
  }
}

case class Align(tokens: Seq[String]) extends Base with Decodable

trait Formatter[A] {
  def format(tree: A,
             style: Style): String
  type Out = String
}

object Newlines {
  implicit val codec: Codec[Newlines] = Codec.derive
  @inline def \`default\`: Newlines = Newlines("keep")
}
`;
    expect(outline('src/main/scala/Newlines.scala', scala)).toEqual([
      'class Newlines 6-13',
      'method Newlines.isKeep 7-7',
      'variable Newlines.topLevel 9-12',
      'class Align 15-15',
      'interface Formatter 17-21',
      'method Formatter.format 18-19',
      'type Formatter.Out 20-20',
      'class Newlines 23-26',
      'variable Newlines.codec 24-24',
      'method Newlines.default 25-25',
    ]);
  });
});

describe('extractFacts: Scala 3, annotations and names in any script', () => {
  it('ends a header at its colon (a body by indentation) and reads the members below as top-level', () => {
    const scala = code`
object Parser:
  def parseHeader(s: String): Int =
    s.length
  def parseBody(s: String): Int = 0

trait Reader:
  def read(): Int
  def close(): Unit
`;
    expect(outline('src/Parser.scala', scala)).toEqual([
      'class Parser 1-1',
      'function parseHeader 2-3',
      'function parseBody 4-4',
      'interface Reader 6-6',
      'function read 7-7',
      'function close 8-8',
    ]);
  });

  it('starts a definition at the annotation lines above it, not at a definition above them', () => {
    const kotlin = code`
object Flags {
    @JvmStatic fun alpha() = 1
    @JvmStatic fun beta() = 2
    @Deprecated("old")
    @JvmStatic
    fun gamma() = 3
}
`;
    expect(outline('src/Flags.kt', kotlin)).toEqual(['class Flags 1-7', 'method Flags.alpha 2-2', 'method Flags.beta 3-3', 'method Flags.gamma 4-6']);
    // arguments nested in an annotation's, or going on below it, keep it the header's
    const nested = code`
class Jobs {
    @Retryable(backoff = Backoff(delay = 100), maxAttempts = 3)
    @Inject(forwardRef(Other))
    fun run() = 1

    @Deprecated(
        "old"
    )
    fun stop() = 2
}
`;
    expect(outline('src/Jobs.kt', nested)).toEqual(['class Jobs 1-10', 'method Jobs.run 2-4', 'method Jobs.stop 6-9']);
  });

  it('reads names in any script (they were cut at the first letter outside ASCII: `Größe` read as `Gr`)', () => {
    expect(outline('src/Größe.scala', 'object Größe {\n  def größeBerechnen(x: Int) = x\n  def получить(): Int = 1\n}\n')).toEqual([
      'class Größe 1-4',
      'method Größe.größeBerechnen 2-2',
      'method Größe.получить 3-3',
    ]);
    expect(outline('src/Größe.kt', 'class Größe {\n    fun получить(): Int = 1\n}\n')).toEqual(['class Größe 1-3', 'method Größe.получить 2-2']);
    expect(outline('src/Größe.swift', 'struct Größe {\n    func получить() -> Int { 1 }\n}\n')).toEqual(['struct Größe 1-3', 'method Größe.получить 2-2']);
    // combining marks, a receiver in any script, and an anonymous given (no name of its own)
    expect(outline('src/a.scala', 'class नमस्ते {\n  given Ordering[String] = Ordering.String\n  given byName: Ordering[Int] = Ordering.Int\n}\n')).toEqual(['class नमस्ते 1-4', 'variable नमस्ते.byName 3-3']);
    expect(outline('src/a.kt', 'fun Größe.berechne(): Int = 1\n')).toEqual(['function berechne 1-1']);
  });
});

describe('extractFacts: C#', () => {
  it('reads namespaces through, classes, attributes and methods', () => {
    const cs = code`
using System;

namespace App.Services
{
    [Serializable]
    public class UserService : IUserService
    {
        private readonly string _path = @"C:\\{dir}\\";

        public UserService(IRepo repo)
        {
            _repo = repo;
        }

        [HttpGet]
        public async Task<List<User>> GetAll(int page)
        {
            return await _repo.ListAsync(page);
        }
    }

    public interface IUserService
    {
        Task<List<User>> GetAll(int page);
    }
}
`;
    expect(outline('Services/UserService.cs', cs)).toEqual([
      'class UserService 5-20',
      'method UserService.UserService 10-13',
      'method UserService.GetAll 15-19',
      'interface IUserService 22-25',
      'method IUserService.GetAll 24-24',
    ]);
  });
});
