@testable import Conformance
@testable import ConformanceCLI
import Foundation
import Testing

/// Each subcommand's options are one table (`RunOptions.commandLine`, `Subcommands`): its
/// help, its "did you mean", the options a run reports and the explain commands it prints
/// are all made from it. These hold each of them to the table, and a few to hand-written
/// expectations.
@Suite("Option tables: help, suggestions, reported options and explain commands from one entry")
struct OptionTableTests {
  /// A subcommand's help and the options of its table, whatever it parses into.
  struct Table {
    var name: String
    var help: String
    var options: [(name: String, placeholder: String?, defaultValue: String?)]

    init<Parsed>(_ subcommand: Subcommand<Parsed>, help: String) {
      name = subcommand.name ?? "(sweep)"
      self.help = help
      options = subcommand.options.map { ($0.name, $0.placeholder, $0.defaultValue) }
    }
  }

  static let tables = [
    Table(Subcommands.run, help: Help.text(topic: nil)),
    Table(Subcommands.explain, help: Help.text(topic: "explain")),
    Table(Subcommands.bench, help: Help.text(topic: "bench")),
    Table(Subcommands.merge, help: Help.text(topic: "merge")),
    Table(Subcommands.compare, help: Help.text(topic: "compare")),
    Table(Subcommands.schema, help: Help.text(topic: "schema")),
    Table(Subcommands.selfTest, help: Help.text(topic: "self-test")),
    Table(Subcommands.executor, help: Help.text(topic: "executor")),
    Table(Subcommands.costs, help: Help.text(topic: "costs")),
  ]

  /// The OPTIONS section of a help, its entries' text joined (a default may wrap).
  static func optionsSection(_ help: String) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(of: "OPTIONS:") else { return [] }
    return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
  }

  /// An entry's whole text: its first line and the lines under it, words joined by one space.
  static func entry(_ label: String, in section: [String]) -> String? {
    guard let first = section.firstIndex(where: { $0.hasPrefix("  \(label) ") || $0 == "  \(label)" })
    else { return nil }
    let following = section[(first + 1)...].prefix { $0.hasPrefix(String(repeating: " ", count: 4)) }
    return ([section[first]] + following).joined(separator: " ").split(separator: " ").joined(separator: " ")
  }

  @Test("each subcommand's --help lists every option of its table, with its placeholder and default, -h, --help last",
        arguments: tables.map(\.name))
  func helpListsTheTable(_ name: String) throws {
    let table = try #require(Self.tables.first { $0.name == name })
    let section = Self.optionsSection(table.help)
    #expect(section.last == "  -h, --help              Show help information.", "\(name)")
    for option in table.options {
      let label = option.name + (option.placeholder.map { " " + $0 } ?? "")
      let entry = Self.entry(label, in: section)
      #expect(entry != nil, "\(name): no entry for \(label)")
      if let defaultValue = option.defaultValue {
        #expect(entry?.contains("(default: \(defaultValue))") == true, "\(name): \(entry ?? label)")
      }
    }
  }

  @Test("a few entries as a user reads them")
  func helpByHand() {
    let run = Self.optionsSection(Help.text(topic: nil))
    #expect(run.contains("  --jobs <n>              worker processes (default: the number of cores)"))
    #expect(run.contains { $0.hasPrefix("  --locales <set>         core, all (every libicu locale") })
    #expect(run.contains("  --dry-run               print what the plan covers and stop"))
    #expect(Self.entry("--years <A...B>", in: run)?.hasSuffix("(default: 1970...2037)") == true)
    let bench = Self.optionsSection(Help.text(topic: "bench"))
    #expect(bench.contains("  --out <file>            where the JSON goes (default: Reports/bench.json)"))
    #expect(bench.contains("  --corpora <dir>         the corpus files (default: ./Corpora, else the package's)"))
    let explain = Help.text(topic: "explain")
    #expect(explain.contains("USAGE: conformance explain <case-id> [--subject <subject>] [--waivers <file|none>]"))
    #expect(Self.entry("--waivers <file|none>", in: Self.optionsSection(explain))
      == "--waivers <file|none> known differences (default: Corpora/known-differences.json; none with an executor)")
  }

  /// The message a command line is refused with.
  static func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try CommandLineParser(arguments: arguments, defaultCorpora: corpora).parse()
      return nil
    } catch {
      return error.message
    }
  }

  @Test("an unknown option near an entry of the table suggests it, for a sweep and for a subcommand")
  func didYouMean() {
    #expect(Self.refusal(["--locale", "en_US"]) == "unknown option '--locale' (did you mean '--locales'?)")
    #expect(Self.refusal(["--time-zone=UTC"]) == "unknown option '--time-zone' (did you mean '--time-zones'?)")
    #expect(Self.refusal(["explain", "--waiver", "x", "leading-blanks|calendar=gregorian"])
      == "unknown option '--waiver' for explain (did you mean '--waivers'?)")
    #expect(Self.refusal(["bench", "--jbos", "2"]) == "unknown option '--jbos' for bench (did you mean '--jobs'?)")
    #expect(Self.refusal(["self-test", "--mutant", "x"])
      == "unknown option '--mutant' for self-test (did you mean '--mutants'?)")
    #expect(Self.refusal(["--bogus"]) == "unknown option '--bogus'")
  }

  @Test("every option of every table, one letter short, is suggested", arguments: tables.map(\.name))
  func everyOptionSuggested(_ name: String) throws {
    let table = try #require(Self.tables.first { $0.name == name })
    let prefix = name == "(sweep)" ? [] : [name]
    for option in table.options {
      let typo = String(option.name.dropLast())
      let refusal = Self.refusal(prefix + [typo])
      #expect(refusal?.contains("unknown option '\(typo)'") == true, "\(refusal ?? "accepted")")
      #expect(refusal?.hasSuffix("(did you mean '\(option.name)'?)") == true, "\(refusal ?? "accepted")")
    }
  }

  /// A run option set to something other than its default: what the run reports of it and
  /// the words its explain commands carry for it, written by hand.
  struct RoundTrip: Sendable {
    var arguments: [String]
    var reported: [String: String] = [:]
    var explain: [String] = []
  }

  static let roundTrips: [RoundTrip] = [
    .init(arguments: ["--locales", "en_US,de_DE"], reported: ["locales": "en_US,de_DE"]),
    .init(arguments: ["--calendars=@/tmp/calendars.txt"], reported: ["calendars": "@/tmp/calendars.txt"]),
    .init(arguments: ["--first-weekdays", "own,2"], reported: ["first-weekdays": "own,2"]),
    .init(arguments: ["--time-zones", "all"],
          reported: ["time-zones": "all", "transitions": "all", "month-sweep": "per-offset"]),
    .init(arguments: ["--checks", "leading-blanks,month-days"], reported: ["checks": "leading-blanks,month-days"]),
    .init(arguments: ["--years", "2000...2001"], reported: ["years": "2000...2001"]),
    .init(arguments: ["--transitions", "all"], reported: ["transitions": "all"]),
    .init(arguments: ["--out", "/tmp/night"], reported: ["out": "/tmp/night"]),
    .init(arguments: ["--record", "all"], reported: ["record": "all"]),
    .init(arguments: ["--baseline", "/tmp/last/results.json"], reported: ["baseline": "/tmp/last/results.json"]),
    .init(arguments: ["--waivers", "none"], reported: ["waivers": "none"], explain: ["--waivers", "none"]),
    .init(arguments: ["--waivers=/tmp/w.json"], reported: ["waivers": "/tmp/w.json"],
          explain: ["--waivers", "/tmp/w.json"]),
    .init(arguments: ["--history", "/tmp/nights"]),
    .init(arguments: ["--fail-on", "any"], reported: ["fail-on": "any"]),
    .init(arguments: ["--oracle-stale", "fail"], reported: ["oracle-stale": "fail"]),
    .init(arguments: ["--jobs", "3"], reported: ["jobs": "3"]),
    .init(arguments: ["--no-isolation"], reported: ["isolation": "in-process"]),
    .init(arguments: ["--case-timeout", "4"], reported: ["case-timeout": "4"]),
    .init(arguments: ["--shard", "2/3"], reported: ["shard": "2/3", "shard-costs": "none"]),
    .init(arguments: ["--month-sweep", "per-offset"], reported: ["month-sweep": "per-offset"]),
    .init(arguments: ["--exhaustive"], reported: ["exhaustive": "yes"]),
    .init(arguments: ["--oracle", "direct"], reported: ["oracle": "direct"]),
    .init(arguments: ["--dry-run"]),
    .init(arguments: ["--subject", "exec:python3 'my executor'.py"],
          reported: ["subject": "exec:python3 'my executor'.py", "waivers": "none"],
          explain: ["--subject", "exec:python3 'my executor'.py"]),
    .init(arguments: ["--subject", "exec:node x.js", "--subject-log", "/tmp/log.jsonl"],
          reported: ["subject": "exec:node x.js", "waivers": "none"],
          explain: ["--subject", "exec:node x.js"]),
    // A corpus without a waiver file: explain reads none there by default, as the run did.
    .init(arguments: ["--corpora", "/tmp/corpora"], reported: ["waivers": "none"],
          explain: ["--corpora", "/tmp/corpora"]),
  ]

  /// `text` as a POSIX shell splits it into words (plain words and single quotes, as
  /// `ExplainCommand` writes them).
  static func shellWords(_ text: String) -> [String] {
    var words: [String] = []
    var word: String?
    var quoted = false
    var escaped = false
    for character in text {
      if escaped {
        word = (word ?? "") + String(character)
        escaped = false
      } else if quoted {
        if character == "'" { quoted = false } else { word = (word ?? "") + String(character) }
      } else if character == "'" {
        quoted = true
        word = word ?? ""
      } else if character == "\\" {
        escaped = true
      } else if character == " " {
        if let done = word { words.append(done) }
        word = nil
      } else {
        word = (word ?? "") + String(character)
      }
    }
    if let done = word { words.append(done) }
    return words
  }

  static func runOptions(_ arguments: [String]) throws -> RunOptions {
    let command = try CommandLineParser(arguments: arguments, defaultCorpora: corpora).parse()
    guard case .run(let options) = command else { throw InputError("\(arguments): not a sweep") }
    return options
  }

  @Test("every run option round-trips: parsed, reported and carried as the table says, and read back the same")
  func roundTrip() throws {
    let id = "leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2021-01-01"
    let defaults = Dictionary(uniqueKeysWithValues: try Self.runOptions([]).reported
      .map { ($0.name, $0.value) })
    for trip in Self.roundTrips {
      let options = try Self.runOptions(trip.arguments)
      let reported = Dictionary(uniqueKeysWithValues: options.reported.map { ($0.name, $0.value) })
      #expect(Set(reported.keys) == Set(defaults.keys), "\(trip.arguments)")
      // What the case sets, and every other key as a run without options reports it.
      for (key, value) in trip.reported {
        #expect(reported[key] == value, "\(trip.arguments): \(key)")
      }
      for (key, value) in reported {
        #expect(value == trip.reported[key] ?? defaults[key], "\(trip.arguments): \(key)")
      }
      // A reported value given back to its option reads as the same.
      for (key, value) in trip.reported {
        guard RunOptions.commandLine.contains(where: { $0.name == "--" + key && $0.placeholder != nil })
        else { continue }
        let again = try Self.runOptions(["--" + key, value]).reported.first { $0.name == key }?.value
        #expect(again == value, "\(trip.arguments): --\(key) \(value) reads back as \(again ?? "nothing")")
      }
      // The explain command carries what the table says, after the case id, and explain
      // reads it back as the run's.
      let command = ExplainCommand(options, environment: [:]).text(for: try CaseID(parsing: id))
      let words = Self.shellWords(command)
      let carried = Array(words.drop { $0 != id }.dropFirst())
      // The binary is started by its path, so the corpora are always named.
      let corporaWords = trip.explain.contains("--corpora")
        ? [] : ["--corpora", corpora.standardizedFileURL.path]
      #expect(carried == trip.explain + corporaWords, "\(trip.arguments): \(words)")
      let explained = try CommandLineParser(arguments: Array(words.dropFirst()), defaultCorpora: corpora)
        .parse()
      guard case .explain(let caseID, let explainCorpora, let waivers, let subject) = explained else {
        Issue.record("\(words): \(explained)")
        continue
      }
      #expect(caseID == id)
      #expect(subject == options.subjectCommand, "\(trip.arguments)")
      #expect(waivers?.standardizedFileURL == options.waivers?.standardizedFileURL, "\(trip.arguments)")
      #expect(explainCorpora.standardizedFileURL == options.request.corporaDirectory.standardizedFileURL)
    }
    // The options no report shows, as parsed.
    #expect(try Self.runOptions(["--history", "/tmp/nights"]).history?.path == "/tmp/nights")
    #expect(try Self.runOptions(["--dry-run"]).dryRun)
    let logged = try Self.runOptions(["--subject", "exec:node x.js", "--subject-log", "/tmp/log.jsonl"])
    #expect(logged.subjectLog?.path == "/tmp/log.jsonl")
    // Each option of the table has a case: a new entry needs one here.
    let tried = Set(Self.roundTrips.flatMap(\.arguments).filter { $0.hasPrefix("--") }
      .map { String($0.split(separator: "=").first ?? "") })
    let untried = RunOptions.commandLine.map(\.name).filter { !tried.contains($0) && $0 != "--version" }
    #expect(untried.isEmpty, "no round trip for \(untried)")
    // What a run carries into explain, explain takes.
    let explainOptions = Subcommands.explain.options.map(\.name)
    for option in RunOptions.commandLine where option.explain != nil {
      #expect(explainOptions.contains(option.name), "\(option.name)")
    }
  }

  @Test("a case line of a run at the defaults names the command the option table spells", arguments: [
    "leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2021-01-01",
    "date-text|locale=fa_IR|zone=Asia/Tehran|variant=héllo wörld",
    "weekday-symbols|locale=ca_ES'x|calendar=islamic",
  ])
  func plainExplainer(id: String) throws {
    // Records spell the default command without the table (they sit under it).
    let caseID = try CaseID(parsing: id)
    #expect(CaseExplainer.plain.text(caseID) == ExplainCommand().text(for: caseID))
    #expect(Self.shellWords(CaseExplainer.plain.text(caseID)) == ["swift", "run", "conformance", "explain", caseID.description])
  }

  @Test("a team's worker explains with explain's table less --subject: its help names the worker, and what a run of its functions carries it takes")
  func workerExplain() throws {
    let table = ExplainCommandLine.worker("MyPickerWorker")
    #expect(table.options.map(\.name) == ["--waivers", "--corpora"])
    #expect(table.help.contains("USAGE: MyPickerWorker explain <case-id> [--waivers <file|none>] [--corpora <dir>]"),
            "\(table.help)")
    let id = "leading-blanks|calendar=gregorian|fw=2|zone=UTC|month=2020-01-01"
    func line(_ arguments: [String]) throws(InputError) -> ExplainCommandLine.Line? {
      guard case .parsed(let line) = try table.parse(arguments[...], into: .init(corpora: corpora)) else { return nil }
      return line
    }
    // The corpora's shipped waivers unless told otherwise, as `conformance explain`.
    let plain = try #require(try line([id]))
    #expect(plain.caseID == id)
    #expect(plain.waiverFile?.path == corpora.appendingPathComponent("known-differences.json").path)
    let told = try #require(try line([id, "--waivers", "none", "--corpora=/tmp/c"]))
    #expect(told.waiverFile == nil && told.corpora.path == "/tmp/c")
    #expect(try line([id, "--help"]) == nil)
    #expect(throws: InputError.self) { try line([id, "--subject", "exec:x"]) }
    do {
      _ = try line([id, "--waiver", "x"])
      Issue.record("--waiver was taken")
    } catch {
      #expect(error.message == "unknown option '--waiver' for explain (did you mean '--waivers'?)")
    }
    // A run of a team's functions carries no --subject (they are no executor).
    for option in RunOptions.commandLine where option.explain != nil && option.name != "--subject" {
      #expect(table.options.contains { $0.name == option.name }, "\(option.name)")
    }
  }
}
