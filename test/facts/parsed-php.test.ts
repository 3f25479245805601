import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small PHP program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
<?php
namespace App\Http;

use App\Models\User;
use function App\Support\helper;
require_once 'config.php';

const VERSION = '1.0';

interface Greeter
{
    public function greet(string $name): string;
}

trait Loggable
{
    public function log($msg)
    {
        error_log($msg);
    }
}

class UserController extends Controller implements Greeter
{
    use Loggable;

    private $repo;

    public function __construct(UserRepo $repo)
    {
        $this->repo = $repo;
    }

    public function greet(string $name): string
    {
        return sprintf('Hi %s', $this->repo->find($name));
    }

    public static function make(): self
    {
        return new self(new UserRepo());
    }
}

function render($view)
{
    return helper($view);
}

enum Status: string
{
    case Active = 'active';
}
`.slice(1);

describe('tree-sitter facts: PHP', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('app/Http/UserController.php', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "constant VERSION 8-8",
      "interface Greeter 10-13",
      "method Greeter.greet 12-12",
      "trait Loggable 15-21",
      "method Loggable.log 17-20",
      "class UserController 23-43",
      "method UserController.__construct 29-32",
      "method UserController.greet 34-37",
      "method UserController.make 39-42",
      "function render 45-48",
      "enum Status 50-53",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["greet<Greeter", "log<Loggable", "__construct<UserController", "greet<UserController", "make<UserController"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('app/Http/UserController.php', PROGRAM);
    expect(facts.imports).toEqual(["App\\Models\\User", "App\\Support\\helper", "config.php"]);
    expect(facts.calls).toEqual(["error_log", "sprintf", "find", "UserRepo", "helper"]);
  });
});
