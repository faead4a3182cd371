import Conformance
import Foundation

/// What the command line asks for.
enum Command {
  case run(RunOptions)
  case explain(caseID: String, corpora: URL)
  case bench(quick: Bool, jobs: Int, out: URL, corpora: URL)
  case merge(shards: [URL], out: URL)
  case selfTest(jobs: Int, corpora: URL)
  case worker(RunOptions)
  case help
  case version
}

/// A hand-written parser following swift-argument-parser's conventions: kebab-case options,
/// `--opt value` and `--opt=value`, `--` ends options, validation across options after parsing.
struct CommandLineParser {
  var arguments: [String]
  var defaultCorpora: URL

  func parse() throws(InputError) -> Command {
    var remaining = arguments[...]
    if remaining.first == "__worker" {
      // A worker process: the same run options as its parent, evaluated step by step.
      let parsed = try CommandLineParser(arguments: Array(remaining.dropFirst()),
                                         defaultCorpora: defaultCorpora).parse()
      guard case .run(let options) = parsed else { throw InputError("__worker takes run options") }
      return .worker(options)
    }
    if remaining.first == "bench" {
      remaining = remaining.dropFirst()
      var quick = false
      var jobs = ProcessInfoCores.count
      var out = URL(fileURLWithPath: "Reports/bench.json")
      var corpora = defaultCorpora
      while let argument = remaining.popFirst() {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        switch name {
        case "-h", "--help": return .help
        case "--quick": quick = true
        case "--jobs": jobs = try jobCount(argument, &remaining)
        case "--out": out = URL(fileURLWithPath: try value(argument, &remaining))
        case "--corpora": corpora = URL(fileURLWithPath: try value(argument, &remaining))
        default: throw InputError("unknown option '\(name)' for bench")
        }
      }
      return .bench(quick: quick, jobs: jobs, out: out, corpora: corpora)
    }
    if remaining.first == "self-test" {
      remaining = remaining.dropFirst()
      var jobs = ProcessInfoCores.count
      var corpora = defaultCorpora
      while let argument = remaining.popFirst() {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        switch name {
        case "-h", "--help": return .help
        case "--jobs": jobs = try jobCount(argument, &remaining)
        case "--corpora": corpora = URL(fileURLWithPath: try value(argument, &remaining))
        default: throw InputError("unknown option '\(name)' for self-test")
        }
      }
      return .selfTest(jobs: jobs, corpora: corpora)
    }
    if remaining.first == "merge" {
      remaining = remaining.dropFirst()
      var shards: [URL] = []
      var out = URL(fileURLWithPath: "Reports/latest")
      while let argument = remaining.popFirst() {
        if argument == "-h" || argument == "--help" { return .help }
        if argument.hasPrefix("--out") {
          out = URL(fileURLWithPath: try value(argument, &remaining))
        } else if argument.hasPrefix("-") {
          throw InputError("unknown option '\(argument)' for merge")
        } else {
          shards.append(URL(fileURLWithPath: argument))
        }
      }
      guard !shards.isEmpty else { throw InputError("merge needs the shards' report directories") }
      return .merge(shards: shards, out: out)
    }
    if remaining.first == "explain" {
      remaining = remaining.dropFirst()
      var corpora = defaultCorpora
      var caseID: String?
      var optionsEnded = false
      while let argument = remaining.popFirst() {
        if !optionsEnded, argument == "--" { optionsEnded = true; continue }
        if !optionsEnded, argument == "-h" || argument == "--help" { return .help }
        if !optionsEnded, argument.hasPrefix("--corpora") {
          corpora = URL(fileURLWithPath: try value(argument, &remaining))
          continue
        }
        if !optionsEnded, argument.hasPrefix("-") {
          throw InputError("unknown option '\(argument)' for explain")
        }
        guard caseID == nil else { throw InputError("explain takes one case id, got '\(argument)' too") }
        caseID = argument
      }
      guard let caseID else { throw InputError("explain needs a case id") }
      return .explain(caseID: caseID, corpora: corpora)
    }

    var request = CorpusRequest(corporaDirectory: defaultCorpora)
    var options = RunOptions(request: request, out: URL(fileURLWithPath: "Reports/latest"))
    options.arguments = arguments
    var waivers: String?
    var isolation = true
    while let argument = remaining.popFirst() {
      if argument == "--" {
        if let extra = remaining.first { throw InputError("unexpected argument '\(extra)'") }
        break
      }
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
      switch name {
      case "-h", "--help": return .help
      case "--version": return .version
      case "--locales":
        request.locales = try selection(name, try value(argument, &remaining))
      case "--calendars":
        request.calendars = try selection(name, try value(argument, &remaining))
      case "--time-zones":
        request.zones = try selection(name, try value(argument, &remaining))
      case "--first-weekdays":
        request.firstWeekdays = try firstWeekdays(try value(argument, &remaining))
      case "--years":
        request.years = try years(try value(argument, &remaining))
      case "--transitions":
        let text = try value(argument, &remaining)
        guard let sample = Corpus.TransitionSample(rawValue: text) else {
          throw InputError("--transitions \(text): expected all or shapes")
        }
        request.transitionSample = sample
      case "--corpora":
        request.corporaDirectory = URL(fileURLWithPath: try value(argument, &remaining))
      case "--checks":
        let text = try value(argument, &remaining)
        options.checks = text == "all" ? [] : text.split(separator: ",").map(String.init)
        if options.checks.isEmpty && text != "all" { throw InputError("--checks has an empty value") }
      case "--out":
        let text = try value(argument, &remaining)
        guard !text.isEmpty else { throw InputError("--out has an empty value") }
        options.out = URL(fileURLWithPath: text)
      case "--record":
        let text = try value(argument, &remaining)
        guard let record = RunOptions.Record(rawValue: text) else {
          throw InputError("--record \(text): expected failures or all")
        }
        options.record = record
      case "--jobs": options.jobs = try jobCount(argument, &remaining)
      case "--shard":
        options.shard = try shard(try value(argument, &remaining))
      case "--waivers":
        waivers = try value(argument, &remaining)
      case "--baseline":
        let text = try value(argument, &remaining)
        guard !text.isEmpty else { throw InputError("--baseline has an empty value") }
        options.baseline = URL(fileURLWithPath: text)
      case "--fail-on":
        let text = try value(argument, &remaining)
        guard let rule = FailOn(rawValue: text) else {
          throw InputError("--fail-on \(text): expected new, unexpected, any or none")
        }
        options.failOn = rule
      case "--oracle":
        let text = try value(argument, &remaining)
        guard let mode = Corpus.OracleMode(rawValue: text) else {
          throw InputError("--oracle \(text): expected tables or direct")
        }
        request.oracleMode = mode
      case "--month-sweep":
        let text = try value(argument, &remaining)
        guard let sweep = Corpus.MonthSweep(rawValue: text) else {
          throw InputError("--month-sweep \(text): expected per-offset or transition-free")
        }
        request.monthSweep = sweep
      case "--no-isolation":
        isolation = false
      case "--exhaustive":
        request.exhaustive = true
      case "--dry-run":
        options.dryRun = true
      default:
        throw InputError(argument.hasPrefix("-")
          ? "unknown option '\(name)'" : "unexpected argument '\(argument)'")
      }
    }
    options.request = request
    // Worker processes run this very executable.
    if isolation {
      options.workerExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
    // The corpus's waiver file unless --waivers names another, or none.
    switch waivers {
    case "none"?: options.waivers = nil
    case let path?: options.waivers = URL(fileURLWithPath: path)
    case nil:
      let file = request.corporaDirectory.appendingPathComponent(Corpus.Files.waivers)
      options.waivers = FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
    return .run(options)
  }

  /// The value of `--jobs`, for a run, `bench` and `self-test` alike.
  func jobCount(_ argument: String, _ remaining: inout ArraySlice<String>) throws(InputError)
    -> Int
  {
    let text = try value(argument, &remaining)
    guard let jobs = Int(text), (1...256).contains(jobs) else {
      throw InputError("--jobs \(text): expected a number from 1 to 256")
    }
    return jobs
  }

  /// The value of `--opt=value` or of `--opt value`.
  func value(_ argument: String, _ remaining: inout ArraySlice<String>) throws(InputError)
    -> String
  {
    if let equals = argument.firstIndex(of: "=") {
      return String(argument[argument.index(after: equals)...])
    }
    guard let next = remaining.first, !next.hasPrefix("--") else {
      throw InputError("missing value for '\(argument)'")
    }
    remaining = remaining.dropFirst()
    return next
  }

  func selection(_ option: String, _ text: String) throws(InputError) -> CorpusRequest.Selection {
    guard !text.isEmpty, text != "@" else { throw InputError("\(option) has an empty value") }
    return CorpusRequest.Selection(parsing: text)
  }

  func firstWeekdays(_ text: String) throws(InputError) -> [FirstWeekdaySetting] {
    if text == "all" { return FirstWeekdaySetting.all }
    var settings: [FirstWeekdaySetting] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let setting = FirstWeekdaySetting(String(part)) else {
        throw InputError("--first-weekdays: '\(part)' is not all, own or 1…7")
      }
      if !settings.contains(setting) { settings.append(setting) }
    }
    return settings
  }

  func years(_ text: String) throws(InputError) -> ClosedRange<Int> {
    let parts = text.components(separatedBy: "...")
    guard parts.count <= 2, let low = Int(parts[0]), let high = Int(parts.last ?? "") else {
      throw InputError("--years \(text): expected A...B, e.g. 1970...2037")
    }
    guard low <= high else { throw InputError("--years \(text): \(low) comes after \(high)") }
    let supported = CorpusRequest.supportedYears
    guard supported.contains(low), supported.contains(high) else {
      throw InputError("--years \(text): outside \(supported.lowerBound)...\(supported.upperBound)")
    }
    return low...high
  }

  func shard(_ text: String) throws(InputError) -> (index: Int, count: Int) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else { throw InputError("--shard \(text): expected K/N with 1 ≤ K ≤ N, e.g. 2/4") }
    return (index, count)
  }
}
