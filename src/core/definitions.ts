/**
 * Whether a line defines (or assigns) a name, across languages, from the line alone. Parsed
 * facts give exact definitions for the files that were read; this covers every candidate's hit
 * lines cheaply, and catches assignments (`config.timeout = …`) that parsers don't call definitions.
 */

function escape(name: string): string {
  return name.replace(/[$]/g, '\\$');
}

const cache = new Map<string, RegExp[]>();

function patternsFor(name: string): RegExp[] {
  let patterns = cache.get(name);
  if (patterns) return patterns;
  const n = escape(name);
  const b = `(?<![\\w$])${n}(?![\\w$])`;
  patterns = [
    // def / class / function / fn / func / type / struct / enum / trait / interface / module / macro
    new RegExp(`\\b(?:def|class|function\\*?|fn|func|type|struct|enum|trait|interface|module|union|namespace|object|record|protocol|impl|macro_rules!|typedef(?:\\s+\\w+)*)\\s+${b}`),
    // Go methods: func (r *T) Name(
    new RegExp(`\\bfunc\\s*\\([^)]*\\)\\s*${b}\\s*[(\\[]`),
    // const/let/var/static declarations
    new RegExp(`\\b(?:const|let|var|val|static|final|readonly|export)\\s+(?:[\\w<>\\[\\],*&\\s]+\\s)?${b}\\s*[:=(<]`),
    // C/C++/Java/C#: a declaration at line start: type name( … with no trailing semicolon
    new RegExp(`^(?:[\\w:<>\\[\\],*&~]+\\s+)+\\**${b}\\s*\\([^;]*$`),
    // #define NAME
    new RegExp(`^\\s*#\\s*define\\s+${b}`),
    // assignments: NAME = …, obj.NAME = …, NAME: … (object/class members), NAME := …
    new RegExp(`(?:^|[\\s.;{])${b}\\s*(?::=|=(?![=>])|\\+=)`),
    // A member's colon follows its name (`name: string`, `name?: T`), or stands apart (`name : T`):
    // `std::fill_n(…)` and `Rack::Logger.new` qualify a name, Ruby's `set :logging` passes a symbol.
    new RegExp(`^\\s*(?:(?:public|private|protected|static|readonly|async|get|set|override|abstract)\\s+)*${b}(?:\\??:(?!:)\\s*[^=]|\\s+\\??:\\s+[^=]|\\s*\\([^)]*\\)\\s*[:{]|\\s*=)`),
  ];
  cache.set(name, patterns);
  return patterns;
}

export function isDefinitionLine(line: string, name: string): boolean {
  if (!line.includes(name)) return false;
  const trimmed = line.trimStart();
  // Comments and calls-with-keywords are not definitions.
  if (/^(?:\/\/|#(?!\s*define)|\*|\/\*|--|;)/.test(trimmed)) return false;
  // Nor is a session shown in a docstring (`>>> ds.PatientName = 'x'`): it uses the name.
  if (/^(?:>>>|\.\.\.\s|In \[\d+\]:|\$\s)/.test(trimmed)) return false;
  if (/^(?:return|if|while|for|elif|else|assert|print|raise|throw)\b/.test(trimmed)) return false;
  return patternsFor(name).some((p) => p.test(line));
}
