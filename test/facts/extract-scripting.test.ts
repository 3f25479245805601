import { describe, expect, it } from 'vitest';
import { code, outline } from './outline.js';

describe('extractFacts: Ruby', () => {
  it('matches `end` past modifiers, heredocs and loops', () => {
    const rb = code`
module Billing
  class Invoice < Base
    def initialize(total)
      @total = total
      return if total.nil?
    end

    def self.build(attrs)
      new(attrs.fetch(:total))
    end

    def notes
      <<~TEXT
        end of the world
      TEXT
    end

    def each_item
      @items.each do |i|
        yield i
      end
      while x do
        x -= 1
      end
    end
  end
end

def top_level(x)
  x * 2
end
`;
    expect(outline('lib/billing.rb', rb)).toEqual([
      'module Billing 1-27',
      'class Billing.Invoice 2-26',
      'method Invoice.initialize 3-6',
      'method Invoice.build 8-10',
      'method Invoice.notes 12-16',
      'method Invoice.each_item 18-25',
      'function top_level 29-31',
    ]);
  });
});

describe('extractFacts: Elixir', () => {
  it('reads modules, functions with do blocks, one-line bodies, multi-line heads and delegates, and no def of a string or an atom', () => {
    const ex = code`
defmodule Ecto.Repo.Queryable do
  @moduledoc """
  def not_a_function do end
  """
  alias Ecto.Query

  def get_by(repo, queryable, clauses, opts) do
    Enum.map(clauses, fn {k, v} -> {k, v} end)
    |> one(repo, opts)
  end

  defp one(name, tuplet), do: name

  def all(repo,
          queryable,
          opts) when is_list(opts) do
    case execute(queryable) do
      {:ok, rows} -> rows
      :end -> []
    end
  end

  defdelegate stream(repo, q), to: Ecto.Repo.Stream

  defmodule Inner do
    defmacro __using__(_opts) do
      quote do
        import Inner
      end
    end
  end
end
`;
    expect(outline('lib/ecto/repo/queryable.ex', ex)).toEqual([
      'module Ecto.Repo.Queryable 1-32',
      'function Ecto.Repo.Queryable.get_by 7-10',
      'function Ecto.Repo.Queryable.one 12-12',
      'function Ecto.Repo.Queryable.all 14-21',
      'function Ecto.Repo.Queryable.stream 23-23',
      'module Ecto.Repo.Queryable.Inner 25-31',
      'function Inner.__using__ 26-30',
    ]);
  });
});

describe('extractFacts: PHP', () => {
  it('reads classes with methods and top-level functions', () => {
    const php = code`
<?php
namespace App\\Http;

#[Attribute]
final class UserController extends Controller
{
    # a hash comment {
    public function index(Request $request)
    {
        $s = "}";
        return view('users');
    }
}

function global_helper($x) {
    return $x;
}
`;
    expect(outline('app/Http/UserController.php', php)).toEqual([
      'class UserController 4-13',
      'method UserController.index 8-12',
      'function global_helper 15-17',
    ]);
  });
});

describe('extractFacts: Lua and Swift', () => {
  it('reads Lua functions and module methods', () => {
    const lua = code`
local M = {}

function M.new(opts)
  if opts then
    for k, v in pairs(opts) do
      print(k, v)
    end
  end
end

local function helper(x)
  --[[ end end ]]
  return "end"
end
`;
    expect(outline('m.lua', lua)).toEqual(['method M.new 3-9', 'function helper 11-14']);
  });

  it('reads Swift types, extensions and methods', () => {
    const swift = code`
protocol Greeter {
    func greet(name: String) -> String
}

struct Person: Greeter {
    init(name: String) {
        self.name = name
    }
}

extension Person {
    func greet(name: String) -> String {
        return "Hello \\(name) {"
    }
}
`;
    expect(outline('Person.swift', swift)).toEqual([
      'interface Greeter 1-3',
      'method Greeter.greet 2-2',
      'struct Person 5-9',
      'method Person.init 6-8',
      'method Person.greet 12-14',
    ]);
  });
});
