import Conformance

/// A subcommand (or the sweep, which has none) as its help shows it and its parser reads it:
/// its arguments and its table of options. Swift-argument-parser's conventions, by hand:
/// `--opt value` and `--opt=value`, `--` ends options, `-h, --help` anywhere before it.
struct Subcommand<Parsed>: Sendable {
  /// `explain`; `nil` for the sweep.
  let name: String?
  /// What the whole help's SUBCOMMANDS says of it.
  let abstract: String
  /// Its OVERVIEW, as written.
  let overview: String
  let arguments: [Argument]
  let options: [CommandOption<Parsed>]
  /// What follows OPTIONS (EXIT CODES), as written.
  let sections: String
  /// Takes an argument that is not an option (or follows `--`); throws `InputError` only.
  let argument: @Sendable (inout Parsed, String) throws -> Void

  /// An argument that is not an option: its placeholder and what it is.
  struct Argument: Sendable {
    let placeholder: String
    let help: String
    /// Given one or more times (`<shard-dir> ...`).
    var repeats = false
  }

  /// How reading a command line ended: every argument read, or an option that answers by
  /// itself (`--help`, `--version`) found first.
  enum Parsing {
    case parsed(Parsed)
    case answer(String)
  }

  /// Reads `arguments` into `parsed`, in order; the first refusal ends it.
  func parse(_ arguments: ArraySlice<String>, into parsed: Parsed) throws(InputError) -> Parsing {
    var parsed = parsed
    var remaining = arguments
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if optionsEnded || !argument.hasPrefix("-") {
        try refusal { try self.argument(&parsed, argument) }
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
      let inline = argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
      if name == "-h" || name == "--help" { return .answer("--help") }
      guard let option = options.first(where: { $0.name == name }) else {
        throw InputError("unknown option '\(name)'" + (self.name.map { " for \($0)" } ?? "")
          + Suggestion.didYouMean(name, among: options.map(\.name) + ["--help"]))
      }
      guard option.placeholder != nil else {
        if let inline { throw InputError("option '\(name)' takes no value, got '\(inline)'") }
        if option.endsParsing { return .answer(name) }
        try refusal { try option.parse(&parsed, OptionValue(option: name, text: "")) }
        continue
      }
      let text: String
      if let inline {
        text = inline
      } else if let next = remaining.first, !next.hasPrefix("--") {
        text = next
        remaining = remaining.dropFirst()
      } else {
        throw InputError("missing value for '\(argument)'")
      }
      try refusal { try option.parse(&parsed, OptionValue(option: name, text: text)) }
    }
    return .parsed(parsed)
  }

  /// What a table's closure refused, as the `InputError` it threw.
  private func refusal(_ body: () throws -> Void) throws(InputError) {
    do {
      try body()
    } catch let error as InputError {
      throw error
    } catch {
      throw InputError("\(error)")
    }
  }

  /// Its help, as `conformance help <name>` prints it.
  var help: String {
    var text = ["OVERVIEW: " + overview, ""] + HelpLayout.usage("USAGE: ", words: synopsis) + [""]
    if !arguments.isEmpty {
      text += ["ARGUMENTS:"] + arguments.flatMap { HelpLayout.entry($0.placeholder, $0.help) } + [""]
    }
    text += ["OPTIONS:"] + optionLines
    if !sections.isEmpty { text += ["", sections] }
    return text.joined(separator: "\n")
  }

  /// `conformance explain <case-id> [--subject <subject>] …`, a word each; more than twelve
  /// options are `[<options>]`, as swift-argument-parser writes them.
  var synopsis: [String] {
    let options = self.options.filter { !$0.endsParsing }
    let optionWords = options.count > 12
      ? ["[<options>]"]
      : options.map { "[" + $0.name + ($0.placeholder.map { " " + $0 } ?? "") + "]" }
    return ["conformance"] + (name.map { [$0] } ?? []) + argumentWords + optionWords
  }

  /// The arguments as the synopsis and the whole help's SUBCOMMANDS write them.
  var argumentWords: [String] { arguments.map { $0.placeholder + ($0.repeats ? " ..." : "") } }

  /// OPTIONS: each option of the table, `-h, --help` last.
  var optionLines: [String] {
    options.flatMap { option in
      HelpLayout.entry(option.name + (option.placeholder.map { " " + $0 } ?? ""),
                       option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
    } + HelpLayout.entry("-h, --help", "Show help information.")
  }
}

/// How help text is laid out: entries in two columns, wrapped to the page's width.
enum HelpLayout {
  static let width = 96
  /// Where an entry's text starts; a longer label puts it on the next line.
  static let column = 26

  /// `  label` and `text` wrapped from `column`.
  static func entry(_ label: String, _ text: String) -> [String] {
    let indent = String(repeating: " ", count: column)
    var lines = wrap(text.split(separator: " ").map(String.init), width: width - column)
      .map { indent + $0 }
    let head = "  " + label
    if head.count < column, !lines.isEmpty {
      lines[0] = head.padding(toLength: column, withPad: " ", startingAt: 0) + lines[0].dropFirst(column)
    } else {
      lines.insert(head, at: 0)
    }
    return lines
  }

  /// `prefix` and `words` wrapped, continued under the word after the command's name.
  static func usage(_ prefix: String, words: [String]) -> [String] {
    let lead = words.prefix(words.count > 1 && !words[1].hasPrefix("[") && !words[1].hasPrefix("<") ? 2 : 1)
    let head = prefix + lead.joined(separator: " ") + " "
    let indent = String(repeating: " ", count: head.count)
    let rest = wrap(Array(words.dropFirst(lead.count)), width: width - head.count)
    guard let first = rest.first else { return [prefix + lead.joined(separator: " ")] }
    return [head + first] + rest.dropFirst().map { indent + $0 }
  }

  /// Words into lines of at most `width` characters (a longer word alone on its line).
  static func wrap(_ words: [String], width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in words {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = word
      } else {
        line += (line.isEmpty ? "" : " ") + word
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
