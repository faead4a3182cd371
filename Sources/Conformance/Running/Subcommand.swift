import Foundation

/// A subcommand (or the sweep, which has none) as its help shows it and its parser reads it:
/// its arguments and its table of options. Swift-argument-parser's conventions, by hand:
/// `--opt value` and `--opt=value`, `--` ends options, `-h, --help` anywhere before it.
package struct Subcommand<Parsed>: Sendable {
  /// `explain`; `nil` for the sweep.
  package let name: String?
  /// What the whole help's SUBCOMMANDS says of it.
  package let abstract: String
  /// Its OVERVIEW, as written.
  package let overview: String
  package let arguments: [Argument]
  package var options: [CommandOption<Parsed>]
  /// What follows OPTIONS (EXIT CODES), as written.
  package let sections: String
  /// Takes an argument that is not an option (or follows `--`); throws `InputError` only.
  package let argument: @Sendable (inout Parsed, String) throws -> Void

  /// The executable the synopsis names: `conformance`, or a team's worker.
  package var executable = "conformance"

  package init(name: String?, abstract: String, overview: String, arguments: [Argument],
               options: [CommandOption<Parsed>], sections: String,
               argument: @escaping @Sendable (inout Parsed, String) throws -> Void) {
    (self.name, self.abstract, self.overview, self.arguments) = (name, abstract, overview, arguments)
    (self.options, self.sections, self.argument) = (options, sections, argument)
  }

  /// An argument that is not an option: its placeholder and what it is.
  package struct Argument: Sendable {
    package let placeholder: String
    package let help: String
    /// Given one or more times (`<shard-dir> ...`).
    package var repeats = false

    package init(placeholder: String, help: String, repeats: Bool = false) {
      (self.placeholder, self.help, self.repeats) = (placeholder, help, repeats)
    }
  }

  /// How reading a command line ended: every argument read, or an option that answers by
  /// itself (`--help`, `--version`) found first.
  package enum Parsing {
    case parsed(Parsed)
    case answer(String)
  }

  /// Reads `arguments` into `parsed`, in order; the first refusal ends it.
  package func parse(_ arguments: ArraySlice<String>, into parsed: Parsed) throws(InputError) -> Parsing {
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
  package var help: String {
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
  package var synopsis: [String] {
    let options = self.options.filter { !$0.endsParsing }
    let optionWords = options.count > 12
      ? ["[<options>]"]
      : options.map { "[" + $0.name + ($0.placeholder.map { " " + $0 } ?? "") + "]" }
    return [executable] + (name.map { [$0] } ?? []) + argumentWords + optionWords
  }

  /// The arguments as the synopsis and the whole help's SUBCOMMANDS write them.
  package var argumentWords: [String] { arguments.map { $0.placeholder + ($0.repeats ? " ..." : "") } }

  /// OPTIONS: each option of the table, `-h, --help` last.
  package var optionLines: [String] {
    options.flatMap { option in
      HelpLayout.entry(option.name + (option.placeholder.map { " " + $0 } ?? ""),
                       option.help + (option.defaultValue.map { " (default: \($0))" } ?? ""))
    } + HelpLayout.entry("-h, --help", "Show help information.")
  }
}

/// How help text is laid out: entries in two columns, wrapped to the page's width.
package enum HelpLayout {
  package static let width = 96
  /// Where an entry's text starts; a longer label puts it on the next line.
  package static let column = 26

  /// `  label` and `text` wrapped from `column`.
  package static func entry(_ label: String, _ text: String) -> [String] {
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
  package static func usage(_ prefix: String, words: [String]) -> [String] {
    let lead = words.prefix(words.count > 1 && !words[1].hasPrefix("[") && !words[1].hasPrefix("<") ? 2 : 1)
    let head = prefix + lead.joined(separator: " ") + " "
    let indent = String(repeating: " ", count: head.count)
    let rest = wrap(Array(words.dropFirst(lead.count)), width: width - head.count)
    guard let first = rest.first else { return [prefix + lead.joined(separator: " ")] }
    return [head + first] + rest.dropFirst().map { indent + $0 }
  }

  /// Words into lines of at most `width` characters (a longer word alone on its line).
  package static func wrap(_ words: [String], width: Int) -> [String] {
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
