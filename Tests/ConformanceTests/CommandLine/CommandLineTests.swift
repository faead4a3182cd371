import Conformance
import Foundation
import Testing

/// The built `conformance` executable, run as a user runs it.
enum Executable {
  /// Next to the test bundle in the build directory.
  static var url: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 where !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("conformance").path)
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("conformance")
  }

  /// Runs it with `arguments` in the package directory; returns status, stdout, stderr.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, out: String, error: String)
  {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.currentDirectoryURL = corpora.deletingLastPathComponent()
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let (out, error) = Spawn.serially { (Pipe(), Pipe()) }
    process.standardOutput = out
    process.standardError = error
    try Spawn.serially { try process.run() }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self))
  }
}

@Suite("Bad input: exit 2, a one-line error naming the culprit, nothing written", .serialized, .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct CommandLineTests {
  static let scratch = FileManager.default.temporaryDirectory
    .appendingPathComponent("conformance-cli-\(getpid())")

  /// Files the cases refer to.
  static func fixtures() throws -> [String: URL] {
    let manager = FileManager.default
    try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
    var files: [String: URL] = [:]
    func write(_ name: String, _ text: String) throws {
      let url = scratch.appendingPathComponent(name)
      try Data(text.utf8).write(to: url)
      files[name] = url
    }
    try write("locales.txt", "en_US | fine\n | no value\n")
    try write("waivers.json", "{\"schema\": \"conformance-waivers/1\", \"waivers\": [{\"id\": \"x\"}]}")
    try write("truncated.json", "{\n  \"schema\": \"conformance-results/1\",\n  \"failures\": [\n    {\"id\":")
    try write("old-schema.json", "{\n  \"schema\": \"conformance-results/0\",\n  \"plan\": [],\n  \"failures\": []\n}\n")
    try write("a-file", "not a directory")
    return files
  }

  /// (arguments, a fragment the error line must contain).
  static func cases(_ files: [String: URL]) -> [([String], String)] {
    [
      (["--locales", "xx_QQ"], "'xx_QQ'"),
      (["--calendars", "julian"], "'julian'"),
      (["--time-zones", "Mars/Olympus_Mons"], "'Mars/Olympus_Mons'"),
      (["--checks", "no-such-check"], "'no-such-check'"),
      (["--first-weekdays", "9"], "'9'"),
      (["--checks", "leading-blanks", "--first-weekdays", "own"], "no cases"),
      (["--years", "2030...2020"], "2030 comes after 2020"),
      (["--years", "1800...1850"], "outside"),
      (["--shard", "3/2"], "--shard 3/2"),
      (["--locales", "@/no/such/file"], "/no/such/file"),
      (["--locales", "@" + files["locales.txt"]!.path], files["locales.txt"]!.path + ":2"),
      (["--waivers", files["waivers.json"]!.path], files["waivers.json"]!.path + " waiver 1 (x)"),
      (["--baseline", files["truncated.json"]!.path], files["truncated.json"]!.path + ":"),
      (["--baseline", files["old-schema.json"]!.path], "schema conformance-results/0"),
      (["--baseline", "/no/such/results.json"], "/no/such/results.json"),
      (["--history", "/no/such/nights"], "--history /no/such/nights: not a readable directory"),
      (["--out", files["a-file"]!.path], "is a file"),
      (["--out", "/proc/no-such-dir/out"], "/proc/no-such-dir"),
      (["--bogus"], "'--bogus'"),
      (["--subject", "exec:sh -c 'echo no such executor >&2; exit 1'"], "exited with status 1 before answering hello"),
      // Misspellings name the closest word the program knows.
      (["--locale", "en_US"], "unknown option '--locale' (did you mean '--locales'?)"),
      (["--fail-on", "unexpectd"], "(did you mean 'unexpected'?)"),
      (["--checks", "leading-blank"], "unknown check 'leading-blank' (did you mean 'leading-blanks'?)"),
      (["--calendars", "hebrw"], "unknown calendar 'hebrw' (did you mean 'hebrew'?)"),
      (["--time-zones", "Europe/Berln"], "(did you mean 'Europe/Berlin'?)"),
      (["explain", "--waiver", "x", "leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2021-01-01"],
       "unknown option '--waiver' for explain (did you mean '--waivers'?)"),
      (["help", "explian"], "no help for 'explian'"),
      (["--locales"], "missing value for '--locales'"),
      (["--case-timeout", "0"], "--case-timeout '0': expected a positive number of CPU seconds"),
      (["--case-timeout", "soon"], "--case-timeout 'soon'"),
      (["explain", "leading-blanks|month=2021-13-01"], "month=2021-13-01"),
      (["bench", "--shards", "8", "--passes", "0"], "--passes '0'"),
      (["bench", "--shards", "8", "--passes", "two"], "--passes 'two'"),
      (["bench", "--passes", "2"], "--passes repeats the shards of --shards or the pairs of --holes"),
      (["bench", "--holes", "--shards", "4"], "--holes and --shards are two benches"),
      (["bench", "--shards", "8,4,8"], "a shard count is named twice"),
    ]
  }

  /// Test-only environment settings that are malformed: (environment, fragment).
  static let environmentCases: [([String: String], String)] = [
    (["CONFORMANCE_FAULT": "segfault:*"], "unknown kind 'segfault'"),
    (["CONFORMANCE_FAULT": "trap"], "CONFORMANCE_FAULT=trap"),
    // A glob no case of the core plan meets: a check id misspelt.
    (["CONFORMANCE_FAULT": "trap:leading-blank|*"],
     "CONFORMANCE_FAULT=trap:leading-blank|*: no case of the selection matches 'leading-blank|*'"),
    (["CONFORMANCE_STEP_TIMEOUT": "soon"], "CONFORMANCE_STEP_TIMEOUT=soon"),
    (["CONFORMANCE_CASE_TIMEOUT": "-1"], "CONFORMANCE_CASE_TIMEOUT=-1"),
  ]

  @Test("every bad input is refused before any work, and the previous report survives")
  func badInputs() throws {
    let files = try Self.fixtures()
    defer { try? FileManager.default.removeItem(at: Self.scratch) }
    // A previous report that no refused run may touch.
    let previous = Self.scratch.appendingPathComponent("previous")
    try FileManager.default.createDirectory(at: previous, withIntermediateDirectories: true)
    let sentinel = previous.appendingPathComponent("results.json")
    try Data("{\"previous\": true}".utf8).write(to: sentinel)
    let runs = Self.cases(files).map { ($0.0, [String: String](), $0.1) }
      + Self.environmentCases.map { ([String](), $0.0, $0.1) }
    for (arguments, environment, fragment) in runs {
      let withOut = arguments.contains("--out") || ["explain", "help"].contains(arguments.first ?? "")
        ? arguments : arguments + ["--out", previous.path]
      let run = try Executable.run(withOut, environment: environment)
      let lines = run.error.split(separator: "\n")
      #expect(run.status == 2, "\(arguments): exit \(run.status)")
      #expect(lines.first?.hasPrefix("Error: ") == true, "\(arguments): \(lines.first ?? "")")
      #expect(lines.first?.contains(fragment) == true, "\(arguments): \(lines.first ?? "") lacks \(fragment)")
      // One error line, then at most a one-line pointer to the subcommand's help (a command
      // line that does not parse); never the usage.
      #expect(!run.error.contains("USAGE:"), "\(arguments): \(run.error)")
      #expect(lines.count == 1 || (lines.count == 2 && lines[1].hasPrefix("See 'conformance help")),
              "\(arguments): \(run.error)")
      if ["--bogus", "--locale"].contains(arguments.first ?? "") {
        #expect(lines.last == "See 'conformance help' for the options.", "\(arguments)")
      }
      if arguments.contains("--waiver") {
        #expect(lines.last == "See 'conformance help explain' for the options.", "\(arguments)")
      }
      #expect(try String(contentsOf: sentinel, encoding: .utf8) == "{\"previous\": true}")
      #expect(try FileManager.default.contentsOfDirectory(atPath: previous.path) == ["results.json"])
    }
  }

  @Test("a fault's cases are looked for in the whole plan: a shard that holds none of them runs (issue 49)")
  func faultInAnotherShard() throws {
    let selection = ["--checks", "leading-blanks,weekday-symbols", "--locales", "en_US", "--calendars", "gregorian",
                     "--time-zones", "UTC", "--years", "2017...2017", "--first-weekdays", "1"]
    var statuses: [Int32] = []
    for shard in ["1/2", "2/2"] {
      let out = Self.scratch.appendingPathComponent("fault-shard-\(shard.prefix(1))-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: out) }
      let run = try Executable.run(selection + ["--shard", shard, "--out", out.path],
                                   environment: ["CONFORMANCE_FAULT": "trap:weekday-symbols|*"])
      statuses.append(run.status)
      #expect(run.status != 2, "\(shard): \(run.error)")
    }
    // The shard with the fault's cases finds them (exit 1, errored), the other runs clean.
    #expect(statuses.sorted() == [0, 1], "\(statuses)")
  }

  @Test("help and version go to stdout and exit 0")
  func helpAndVersion() throws {
    let help = try Executable.run(["--help"])
    #expect(help.status == 0 && help.out.contains("OVERVIEW:") && help.out.contains("SUBCOMMANDS"))
    // Every check a run can sweep is named under --checks.
    for check in CheckCatalog.all.map(\.id) { #expect(help.out.contains(" \(check),") || help.out.contains(" \(check) (default"), "\(check)") }
    // Each subcommand's own help, asked either way.
    for topic in ["explain", "bench", "merge", "self-test"] {
      for arguments in [["help", topic], [topic, "--help"]] {
        let run = try Executable.run(arguments)
        #expect(run.status == 0, "\(arguments)")
        #expect(run.out.contains("USAGE: conformance \(topic)"), "\(arguments): \(run.out.prefix(200))")
      }
    }
    let version = try Executable.run(["--version"])
    #expect(version.status == 0 && version.out.hasPrefix("conformance "))
  }

  @Test("bench --reference and --holes are two benches, and neither goes with --shards: exit 2, nothing measured")
  func benchPairsOneAtATime() throws {
    for arguments in [["--reference", "--holes"], ["--reference", "--shards", "4"], ["--passes", "2"]] {
      let run = try Executable.run(["bench"] + arguments)
      #expect(run.status == 2, "\(arguments): \(run.error)")
      #expect(run.error.contains("two benches") || run.error.contains("--passes repeats"), "\(run.error)")
    }
  }

  @Test("explain says whether a run sweeps the case: the core corpus's plan, a selection's, or none but --exhaustive (issue 49)")
  func explainSaysThePlan() throws {
    func plan(_ id: String) throws -> String {
      let run = try Executable.run(["explain", id], environment: [:])
      #expect(run.status == 0, "\(run.error)")
      return run.out.split(separator: "\n").first { $0.hasPrefix("plan:") }.map(String.init) ?? "(no plan line)"
    }
    // UTC sweeps every month of the core years (1970…2037).
    #expect(try plan("leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2021-01-01")
      == "plan:     in the core corpus's plan (a run with no selection sweeps it)")
    // 1905 is before the core years: a run given them sweeps it.
    #expect(try plan("leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=1905-01-01")
      == "plan:     not in the core corpus's plan: a run with no selection does not sweep it; "
        + "--calendars gregorian --time-zones UTC --years 1904...1906 does")
    // Troll (a core zone) changes its clocks in March and October only, and is not a zone
    // that sweeps every month: no selection but --exhaustive takes its January.
    #expect(try plan("leading-blanks|calendar=gregorian|fw=1|zone=Antarctica/Troll|month=2021-01-01")
      .hasPrefix("plan:     not in any run's plan but an --exhaustive one"))
  }

  @Test("bench --holes compares with the sweep as it was before issue 30: no month grid, fewer date texts")
  func planBeforeClosingHoles() throws {
    func planned(_ check: String, before: Bool) throws -> Int {
      let run = try Executable.run(["--dry-run", "--checks", check, "--calendars", "hebrew", "--time-zones", "UTC",
                                    "--locales", "en_US"],
                                   environment: before ? ["CONFORMANCE_BENCH_PLAN": "before-closing-holes"] : [:])
      #expect(run.status == 0, "\(run.error)")
      // "plan: 476 cases in 1 steps; …"
      let words = run.out.split(separator: " ")
      return words.count > 1 ? Int(words[1].replacingOccurrences(of: ",", with: "")) ?? -1 : -1
    }
    // Issue 30 added the month-grid check whole, and date-text's cycle of Hebrew months.
    #expect(try planned("month-grid", before: false) > 0)
    #expect(try planned("month-grid", before: true) == 0)
    #expect(try planned("date-text", before: true) < planned("date-text", before: false))
  }

}

@Suite("Interrupted runs: the last report intact, what ran in a partial one", .serialized, .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct InterruptionTests {
  @Test("SIGINT and SIGTERM mid-sweep: the run says so and the previous report stays",
        arguments: [SIGINT, SIGTERM])
  func interrupted(signal number: Int32) throws {
    let (parent, out, sentinel) = try previousReports("conformance-interrupt-\(getpid())-\(number)")
    defer { try? FileManager.default.removeItem(at: parent) }
    let (process, error) = try start(["--out", out.path, "--jobs", "1"])
    // The core corpus takes over ten seconds: a second in, the sweep is under way.
    Thread.sleep(forTimeInterval: 1.5)
    kill(process.processIdentifier, number)
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 128 + number)
    #expect(text.contains("interrupted by \(number == SIGINT ? "SIGINT" : "SIGTERM")"))
    #expect(try String(contentsOf: sentinel, encoding: .utf8) == "{\"previous\": true}")
    // What ran, if the sweep had begun: a partial report beside it, marked incomplete.
    let written = try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
    #expect(written == ["latest"] || written == ["latest", "latest.partial"], "\(written)")
    if written.count == 2 {
      let record = try runRecord(parent.appendingPathComponent("latest.partial"))
      #expect(record.run.incomplete?.interruptedBy == (number == SIGINT ? "SIGINT" : "SIGTERM"))
      #expect(record.run.incomplete?.casesRun == record.summary.total)
    }
  }

  @Test("SIGTERM while every worker (or thread) spins in the subject: exit 143 within 2 s, what ran in a partial report marked incomplete, the last report intact, no worker left",
        arguments: [false, true])
  func interruptedHang(inProcess: Bool) throws {
    let (parent, out, sentinel) = try previousReports("conformance-interrupt-hang-\(getpid())-\(inProcess)")
    defer { try? FileManager.default.removeItem(at: parent) }
    // leading-blanks runs first and finishes; then every same-day-closing case spins, and no
    // limit ends a case within the test.
    let (process, error) = try start(
      ["--out", out.path, "--jobs", "2", "--checks", "leading-blanks,same-day-closing", "--calendars", "gregorian",
       "--time-zones", "UTC", "--years", "2020...2020"] + (inProcess ? ["--no-isolation"] : []),
      environment: ["CONFORMANCE_FAULT": "hang:same-day-closing|*", "CONFORMANCE_CASE_TIMEOUT": "600"])
    // Hung for sure: the run's processes have spent 4 s of CPU (two spinning for 2 s).
    let deadline = Date().addingTimeInterval(60)
    while cpuSeconds(of: process.processIdentifier) < 4 && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
    }
    #expect(cpuSeconds(of: process.processIdentifier) >= 4)
    let signalled = ContinuousClock.now
    kill(process.processIdentifier, SIGTERM)
    // A run that does not end is killed after 10 s, so a regression fails instead of hanging.
    while process.isRunning && ContinuousClock.now - signalled < .seconds(10) { usleep(10_000) }
    let elapsed = ContinuousClock.now - signalled
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(elapsed < .seconds(2), "ended \(elapsed) after SIGTERM")
    #expect(process.terminationStatus == 143)
    #expect(text.contains("interrupted by SIGTERM"), "\(text)")
    #expect(try String(contentsOf: sentinel, encoding: .utf8) == "{\"previous\": true}")
    // Beside it, what ran: leading-blanks' 84 cases (first weekdays 1…7 × the 12 months of
    // 2020, gregorian, UTC), none of the spinning check's, marked incomplete on every surface.
    let partial = parent.appendingPathComponent("latest.partial")
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted() == ["latest", "latest.partial"])
    #expect(text.contains("the 84 cases that ran are in \(partial.path), a partial report marked incomplete"), "\(text)")
    let record = try runRecord(partial)
    #expect(record.run.incomplete?.interruptedBy == "SIGTERM")
    #expect(record.run.incomplete?.casesRun == 84 && record.summary.total == 84 && record.summary.passed == 84)
    #expect((record.run.incomplete?.casesPlanned ?? 0) > 84)
    let junit = try String(contentsOf: partial.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains("<error message=\"INCOMPLETE: interrupted by SIGTERM after 84 of "), "\(junit.prefix(800))")
    let page = try String(contentsOf: partial.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(page.contains("INCOMPLETE: interrupted by SIGTERM after 84 of "))
    // No worker outlives the run (each one's command line names this run's --out). A killed
    // worker shows its command line until the kernel has torn it down, a moment on a loaded
    // machine; one left spinning never goes.
    let exited = Date()
    while !processes(naming: out.path).isEmpty && Date().timeIntervalSince(exited) < 5 { usleep(50_000) }
    #expect(processes(naming: out.path).isEmpty)
  }

  @Test("Ctrl-C (SIGINT to the bench's process group) or SIGTERM on `bench --shards`: the sweep under it stops too, and its directory goes",
        arguments: [SIGINT, SIGTERM])
  func interruptedBench(signal number: Int32) throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-bench-interrupt-\(getpid())-\(number)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    // A copy of the corpora: a bench that went on would refit the model in it.
    let copy = scratch.appendingPathComponent("Corpora")
    try FileManager.default.copyItem(at: corpora, to: copy)
    let report = scratch.appendingPathComponent("bench-shards.json")
    let (process, error) = try start(["bench", "--shards", "2", "--corpora", copy.path, "--out", report.path])
    let runs = "conformance-bench-shards-\(process.processIdentifier)"
    // Its first run, the full sweep whole under GNU time, is under way.
    let deadline = Date().addingTimeInterval(30)
    while processes(naming: runs + "/single").count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    try #require(processes(naming: runs + "/single").count >= 2, "the bench's single run never started")
    Thread.sleep(forTimeInterval: 1)
    let signalled = ContinuousClock.now
    // A terminal's Ctrl-C goes to the foreground process group: the bench's own here
    // (Foundation starts a child in a group of its own), not its children's.
    if number == SIGINT, kill(-process.processIdentifier, number) != 0 { kill(process.processIdentifier, number) }
    if number == SIGTERM { kill(process.processIdentifier, number) }
    while process.isRunning && ContinuousClock.now - signalled < .seconds(10) { usleep(10_000) }
    let elapsed = ContinuousClock.now - signalled
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    Thread.sleep(forTimeInterval: 0.5)
    let left = processes(naming: runs)
    // A regression must not leave a full sweep running on the test machine.
    for pid in left { kill(pid, SIGKILL) }
    #expect(left.isEmpty, "\(left.count) processes of the bench's runs outlived it")
    #expect(elapsed < .seconds(3), "ended \(elapsed) after the signal")
    #expect(process.terminationStatus == 128 + number)
    #expect(text.contains("interrupted by \(number == SIGINT ? "SIGINT" : "SIGTERM")"), "\(text)")
    #expect(!FileManager.default.fileExists(
      atPath: FileManager.default.temporaryDirectory.appendingPathComponent(runs).path))
    #expect(!FileManager.default.fileExists(atPath: report.path))
  }

  /// A report directory holding a previous run's results.json (a sentinel).
  func previousReports(_ name: String) throws -> (parent: URL, out: URL, sentinel: URL) {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent(name)
    let out = parent.appendingPathComponent("latest")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let sentinel = out.appendingPathComponent("results.json")
    try Data("{\"previous\": true}".utf8).write(to: sentinel)
    return (parent, out, sentinel)
  }

  /// Starts the executable; its stderr is the returned pipe.
  func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = Executable.url
    process.arguments = arguments
    process.currentDirectoryURL = corpora.deletingLastPathComponent()
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let error = Spawn.serially { Pipe() }
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    try Spawn.serially { try process.run() }
    return (process, error)
  }

  /// CPU seconds spent by a process and its live descendants (from /proc).
  func cpuSeconds(of pid: Int32) -> Double {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    func own(_ pid: Int32) -> (Double, Int32?)? {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")") else { return nil }
      // After "pid (comm)": state, ppid, … utime is the 12th field after comm, stime the 13th.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
      return ((user + system) / ticks, Int32(fields[1]))
    }
    // The run, its workers and theirs (a worker's forked children spin).
    var (total, family) = (own(pid)?.0 ?? 0, Set([pid]))
    var found = true
    while found {
      found = false
      for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = Int32(entry), !family.contains(child), let (seconds, parent) = own(child),
          let parent, family.contains(parent) else { continue }
        (total, found) = (total + seconds, true)
        family.insert(child)
      }
    }
    return total
  }

  /// Processes whose command line contains `text`.
  func processes(naming text: String) -> [Int32] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
      guard let pid = Int32(entry),
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
      return String(decoding: data, as: UTF8.self).contains(text) ? pid : nil
    }
  }
}

@Suite("Isolation: a trap or a hang costs one case", .serialized, .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct IsolationTests {
  static let selection = ["--locales", "en_US", "--calendars", "gregorian,islamic",
                          "--time-zones", "UTC,Asia/Tehran", "--years", "2017...2017",
                          "--checks", "leading-blanks,weekday-symbols,month-days", "--jobs", "2"]

  /// Runs the selection in worker processes with a fault, and reads results.json.
  func run(fault: String?, recordAll: Bool = false) throws -> ExecutableRun {
    var environment = ["CONFORMANCE_STEP_TIMEOUT": "20", "CONFORMANCE_CASE_TIMEOUT": "3"]
    if let fault { environment["CONFORMANCE_FAULT"] = fault }
    return try ExecutableRun(Self.selection + (recordAll ? ["--record", "all"] : []), environment: environment)
  }

  @Test("faults in chosen cases, including the very first and the very last")
  func faults() throws {
    let clean = try run(fault: nil, recordAll: true)
    let ids = clean.cases.map(\.id.description)
    // --record all: every case, in plan order.
    try #require(ids.count == clean.summary.total, "\(ids.count) of \(clean.summary.total) cases recorded")
    let (first, last) = (try #require(ids.first), try #require(ids.last))
    let middle = ids[ids.count / 2]
    for (fault, id, reason) in [("trap", middle, "died from SIGILL"), ("hang", middle, "past its limit of 3.00 s of CPU"),
                                ("trap", first, "died from SIGILL"), ("trap", last, "died from SIGILL"),
                                ("closed-range", middle, "died from SIGILL"),
                                ("week-of-year", middle, "past its limit of 3.00 s of CPU")] {
      let faulty = try run(fault: "\(fault):\(id)", recordAll: true)
      let broken = faulty.cases.filter { $0.outcome.verdict == .errored }
      #expect(broken.map(\.id.description) == [id], "\(fault) at \(id)")
      let detail = (broken.first?.outcome.detail ?? []).joined(separator: " ")
      #expect(detail.contains(reason), "\(fault) at \(id): \(detail)")
      // What it should have answered: libicu's value, as the clean run recorded it, in the
      // case file and in JUnit (the page reads the case file's).
      let expected = try #require(clean.cases.first { $0.id.description == id }).outcome.expected
      let faulted = try #require(broken.first).outcome.expected
      if case .list(let days) = faulted, case .int(let count) = expected {
        // month-days records a passing case's day count, a failing one's days: the faulted
        // case's are libicu's days, as many as the clean run counted.
        #expect(days.count == count, "\(fault) at \(id): \(faulted) against \(expected)")
      } else {
        #expect(expected != .null && faulted == expected, "\(fault) at \(id): \(faulted) against \(expected)")
      }
      // (JUnit clips a long value; XML escapes its quotes.)
      let written = faulted.description.prefix(30).replacingOccurrences(of: "\"", with: "&quot;")
      #expect(faulty.junit.contains("  expected: \(written)"), "\(fault) at \(id)")
      if fault == "closed-range" {
        // Foundation's empty Ramadan 1438 made a closed range: the runtime's words name the group.
        #expect(broken.first?.outcome.pattern.hasSuffix(": Range requires lowerBound <= upperBound") == true,
                "\(broken.first?.outcome.pattern ?? "")")
      }
      // Every other case ran as in the clean run, values and review alike.
      let (others, cleanOthers) = (faulty.cases.filter { $0.id.description != id },
                                   clean.cases.filter { $0.id.description != id })
      #expect(others.count == cleanOthers.count, "\(fault) at \(id)")
      let difference = zip(others, cleanOthers).first { $0 != $1 }
      #expect(difference == nil, "\(fault) at \(id): first difference \(difference.map { "\($0.0.id) vs \($0.1.id)" } ?? "")")
      #expect(faulty.summary.total == clean.summary.total)
      // A crash is never waived by a waiver written for data: Corpora/known-differences.json
      // waives every failure of Islamic month-days ("foundation-islamic-empty-months",
      // pattern "*"), but not a crash there, which fails the run like any other.
      #expect(broken.first?.review.waiver == nil, "\(fault) at \(id)")
      #expect(faulty.status == 1, "\(fault) at \(id)")
    }
  }

  @Test("a case that traps ends a forked child, not its worker: a trap in every Saturday-first case of eight locales, eight errored cases, one worker started")
  func trapsEndChildren() throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-forks-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    // The worker executable is a script that notes each start, then is conformance.
    let (starts, wrapper) = (scratch.appendingPathComponent("starts"), scratch.appendingPathComponent("worker"))
    try Data("#!/bin/sh\necho started >> '\(starts.path)'\nexec '\(Executable.url.path)' \"$@\"\n".utf8).write(to: wrapper)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
    var request = CorpusRequest(corporaDirectory: corpora)
    let locales = ["en_US", "de_DE", "fr_FR", "ja_JP", "ar_EG", "he_IL", "zh_CN", "ru_RU"]
    request.locales = .list(locales)
    request.calendars = .list(["gregorian"])
    var options = RunOptions(request: request, out: scratch.appendingPathComponent("out"))
    options.checks = ["weekday-symbols"]
    options.jobs = 1
    options.workerExecutable = wrapper
    options.workerLaunch = WorkerLaunch(environment: ["CONFORMANCE_FAULT": "trap:weekday-symbols|*|fw=7"])
    _ = try ConformanceRun.run(options)
    let errored = try recordedCases(options.out).filter { $0.outcome.verdict == .errored }.map(\.id.description)
    #expect(errored.sorted() == locales.map { "weekday-symbols|locale=\($0)|calendar=gregorian|fw=7" }.sorted(),
            "\(errored)")
    // Each trap ended a child forked from the one worker, which went on serving.
    let started = try String(contentsOf: starts, encoding: .utf8).split(separator: "\n")
    #expect(started.count == 1, "\(started.count) workers started")
  }

  @Test("a worker killed from outside, while it starts or mid-sweep, or the child it serves from, is replaced and its cases run again",
        arguments: [(0.0, false), (2.0, false), (2.0, true)])
  func killedWorker(after seconds: Double, itsChild: Bool) throws {
    let out = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-killed-\(getpid())-\(Int(seconds))-\(itsChild)")
    defer { try? FileManager.default.removeItem(at: out) }
    let process = Process()
    process.executableURL = Executable.url
    process.arguments = ["--out", out.path, "--jobs", "2"]
    process.currentDirectoryURL = corpora.deletingLastPathComponent()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try Spawn.serially { try process.run() }
    // Kill one worker of the core run as soon as it is seen (it is still loading the corpus
    // and has not said it is ready), or two seconds later, mid-sweep.
    var killed: Int32?
    for _ in 0..<(seconds > 0 ? 100 : 4000) where killed == nil {
      Thread.sleep(forTimeInterval: seconds > 0 ? 0.2 : 0.005)
      if let child = childProcesses(of: process.processIdentifier).first {
        Thread.sleep(forTimeInterval: seconds)
        guard let target = itsChild ? childProcesses(of: child).first : child else { continue }
        kill(target, SIGKILL)
        killed = target
      }
    }
    // A run that never ends fails here, with its processes' states, instead of hanging CI.
    let hung = unfinished(process, within: 600)
    try #require(hung == nil, "the run did not end: \(hung ?? "")")
    #expect(killed != nil)
    #expect(process.terminationStatus == 0)
    let summary = try runRecord(out).summary
    // The core corpus's counts, as the in-process tests and CI see them.
    #expect(summary.errored == 0)
    #expect(summary.failed == 0)
    #expect(summary.passed + summary.waived + summary.oracleStale == summary.total)
  }

  @Test("in worker processes a baseline classifies, and lists what is not swept, as in-process")
  func baselineInWorkers() throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-baseline-workers-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let selection = ["--locales", "en_US", "--calendars", "gregorian,chinese", "--years", "2012...2012",
                     "--checks", "leading-blanks,month-days", "--jobs", "2"]
    let before = scratch.appendingPathComponent("before")
    _ = try Executable.run(selection + ["--time-zones", "UTC,Asia/Tokyo", "--out", before.path])
    // What to expect, from the baseline's own failures: UTC's fail again, Tokyo's are not swept.
    let baselineIDs = try recordedCases(before).map(\.id.description)
    let tokyo = baselineIDs.filter { $0.contains("zone=Asia/Tokyo") }.sorted()
    try #require(!tokyo.isEmpty && tokyo.count < baselineIDs.count)

    var reviews: [RunRecord] = []
    for isolation in [[], ["--no-isolation"]] {
      let out = scratch.appendingPathComponent("after\(isolation.count)")
      let result = try Executable.run(selection + isolation + [
        "--time-zones", "UTC", "--baseline", before.appendingPathComponent("results.json").path,
        "--out", out.path])
      #expect(result.status == 0, "\(isolation): \(result.error)")
      reviews.append(try runRecord(out))
    }
    for review in reviews {
      #expect(review.run.review.removed == tokyo)
      let classes = review.baselineClasses
      #expect(classes["still-failing"] == baselineIDs.count - tokyo.count)
      #expect(classes["removed"] == tokyo.count)
      #expect(classes.filter { !["still-failing", "removed"].contains($0.key) }.values.allSatisfy { $0 == 0 })
    }
  }

  @Test("a worker's case lines reach cases.jsonl.gz as an in-process run writes them, abridged where it abridges",
        arguments: [[], ["--record", "all"]])
  func workerLinesAsWritten(record: [String]) throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-lines-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Corpora/known-differences.json waives Foundation's empty astronomical Islamic months
    // (Tehran) and the Chinese leap-month texts: more waived cases than a cluster keeps as
    // examples, so the parent abridges some of the lines its workers wrote whole.
    let selection = ["--locales", "en_US,ar_SA,fa_IR", "--calendars", "gregorian,islamic,islamic-civil,chinese",
                     "--time-zones", "UTC,Asia/Tehran,America/Sao_Paulo", "--years", "2017...2018",
                     "--jobs", "2"] + record
    var lines: [[String]] = []
    var matrices: [NSDictionary] = []
    for isolation in [[], ["--no-isolation"]] {
      let out = scratch.appendingPathComponent("run\(isolation.count)")
      let result = try Executable.run(selection + isolation + ["--out", out.path])
      #expect(result.status == 0, "\(isolation): \(result.error)")
      // Byte for byte, as a person reads the file.
      let zcat = Process()
      zcat.executableURL = URL(fileURLWithPath: "/bin/zcat")
      zcat.arguments = [out.appendingPathComponent("cases.jsonl.gz").path]
      let pipe = Spawn.serially { Pipe() }
      zcat.standardOutput = pipe
      try Spawn.serially { try zcat.run() }
      let text = pipe.fileHandleForReading.readDataToEndOfFile()
      zcat.waitUntilExit()
      lines.append(String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init))
      // The matrices count cases by each zone's class, which a worker takes from its parent.
      let results = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json")))
      matrices.append(try #require((results as? NSDictionary)?["matrices"] as? NSDictionary))
    }
    #expect(matrices[0] == matrices[1], "workers and threads count the same zone classes")
    #expect(String(describing: matrices[0]).contains("skipped-midnight"), "Sao_Paulo's class is in them")
    let (workers, inProcess) = (lines[0], lines[1])
    let abridged = inProcess.filter { $0.contains(#""actualDigest":"#) }.count
    #expect(record.isEmpty ? abridged > 0 : inProcess.count > 1000, "the selection exercises what it should")
    #expect(workers.count == inProcess.count)
    let difference = zip(workers, inProcess).enumerated().first { $1.0 != $1.1 }
    #expect(difference == nil, "line \(difference.map { $0.offset + 1 } ?? 0): \(difference?.element.0 ?? "") vs \(difference?.element.1 ?? "")")
  }

  /// Waits up to `seconds` for `process` to end. When it has not: kills it and its children,
  /// and returns what each was doing (`pid (command) state …` from /proc).
  func unfinished(_ process: Process, within seconds: Double) -> String? {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(50_000) }
    guard process.isRunning else { return nil }
    let root = process.processIdentifier
    let pids = [root] + childProcesses(of: root)
    let states = pids.map { pid in
      String(((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "\(pid) (gone)").prefix(60))
    }
    for pid in pids.reversed() { kill(pid, SIGKILL) }
    return states.joined(separator: "; ")
  }

  /// Processes whose parent is `parent`, read from /proc/<pid>/stat (field 4 is the parent's pid).
  /// The workers are spawned from several threads, so the main thread's `children` list misses them.
  func childProcesses(of parent: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
      guard let pid = Int32(entry),
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")") else { return nil }
      // After "pid (comm)" come: state, ppid, …; comm may itself hold spaces or parentheses.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
    }
  }
}

@Suite("What a run prints reproduces what it reports", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct ReproductionTests {
  struct Line: Decodable {
    var id: String
    var verdict: String
    var explain: String?
  }

  /// The binary the tests run, by the absolute path a run prints in its explain commands.
  static let binary = Executable.url.resolvingSymlinksInPath().path

  /// `command` run through a shell from `directory` (the package's by default), `swift run
  /// conformance` standing for this build, stdout and stderr into one pipe as `2>&1` does.
  static func shell(_ command: String, in directory: URL = corpora.deletingLastPathComponent()) throws
    -> (status: Int32, signalled: Bool, output: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command.replacingOccurrences(of: "swift run conformance", with: "'\(Executable.url.path)'")
      + " 2>&1"]
    process.currentDirectoryURL = directory
    let pipe = Spawn.serially { Pipe() }
    process.standardOutput = pipe
    try Spawn.serially { try process.run() }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, process.terminationReason == .uncaughtSignal, output)
  }

  /// The cases file of a report directory, as lines with their explain commands.
  static func lines(_ out: URL) throws -> [Line] {
    let reader = try ResultsDirectory(out, role: "test", as: RunRecord.self).cases()
    var lines: [Line] = []
    while let line = try reader.next(Line.self) { lines.append(line) }
    return lines
  }

  @Test("with --waivers none: the verdict is the last line of a redirected run, and each explain command, run as printed from /tmp, says failed")
  func waiversNone() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-repro-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    // zh_CN's own first weekday: Monday in libicu's CLDR 42, Sunday in Foundation's CLDR 46 (a
    // shipped waiver explains it; with none, it fails).
    let run = try Self.shell("swift run conformance --checks weekday-symbols --locales zh_CN --calendars gregorian "
      + "--first-weekdays own --waivers none --out '\(out.path)'")
    #expect(run.status == 1, "\(run.output)")
    let last = run.output.split(separator: "\n").last.map(String.init) ?? ""
    #expect(last.hasPrefix("exit 1: "), "the last line: \(last)")
    let failing = try Self.lines(out).filter { $0.verdict == "failed" }
    let first = try #require(failing.first)
    let command = try #require(first.explain)
    // The binary that ran, by its absolute path, and the corpora it read: pasted in a CI
    // log's directory or /tmp, where `swift run` finds no package, it runs as printed.
    #expect(command.hasPrefix(Self.binary + " explain '\(first.id)' --waivers none --corpora \(corpora.path)"),
            "\(command)")
    let explained = try Self.shell(command, in: URL(fileURLWithPath: "/tmp"))
    #expect(explained.status == 1 && explained.output.contains("status:   failed"), "\(explained.output)")
    // The console's command and JUnit's are the same one.
    #expect(run.output.contains("The top new pattern's first case: " + command), "\(run.output)")
    let junit = try String(contentsOf: out.appendingPathComponent("junit.xml"), encoding: .utf8)
    #expect(junit.contains(JUnitXML.escape(command, attribute: false)))
    // The same case explained with the shipped waivers is waived: the option is what decides.
    let shipped = try Self.shell("swift run conformance explain '\(first.id)'")
    #expect(shipped.status == 0 && shipped.output.contains("status:   waived"), "\(shipped.output)")
  }

  @Test("a console pattern line names each of the page's groups it holds, counted as the cases file counts them")
  func patternLineGroups() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-groups-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    // One pattern, two causes, two waivers: Foundation opens ethiopic-amete-alem as Gregorian
    // (logic-defect), and both ICUs start the islamic month of 2027-04-08 a day apart with no
    // published table to decide (no-reference), on each of its 7 first weekdays.
    let run = try Executable.run(["--checks", "leading-blanks", "--locales", "en_US", "--calendars",
                                  "ethiopic-amete-alem,islamic", "--time-zones", "UTC", "--years", "2027...2027",
                                  "--out", out.path])
    #expect(run.status == 0, "\(run.error)")
    let pattern = "subject's month starts earlier than libicu's"
    let line = try #require(run.out.split(separator: "\n").first { $0.contains("× leading-blanks: \(pattern) (") },
                            "\(run.out)")
    // The groups as a reader counts them in cases.jsonl.gz: by status and triage.
    var groups: [String: Int] = [:]
    for record in try recordedCases(out) where record.outcome.pattern == pattern {
      groups["\(record.status.rawValue) · \(record.review.triage?.rawValue ?? "")", default: 0] += 1
    }
    #expect(groups["waived · no-reference"] == 7, "\(groups)")
    #expect(groups.count == 2 && groups["waived · logic-defect", default: 0] > 0, "\(groups)")
    let total = groups.values.reduce(0, +)
    // (Under 1,000 each: 13 months × 7 first weekdays at most, so no separators.)
    let listed = groups.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }
    #expect(line.hasSuffix("\(total) × leading-blanks: \(pattern) (\(listed.joined(separator: ", ")))"),
            "\(line)")
  }

  @Test("with an injected trap: the explain command carries the fault, and run as printed from /tmp it explains the crash: inputs, libicu's expected value, the signature, exit 1 (issue 49)")
  func injectedFault() throws {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-repro-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: out) }
    let id = "leading-blanks|calendar=gregorian|fw=1|zone=UTC|month=2011-05-01"
    let run = try Self.shell("CONFORMANCE_FAULT='trap:\(id)' swift run conformance --checks leading-blanks "
      + "--calendars gregorian --time-zones UTC --first-weekdays 1 --years 2011...2011 --out '\(out.path)'")
    #expect(run.status == 1, "\(run.output)")
    let errored = try #require(try Self.lines(out).first { $0.id == id })
    #expect(errored.verdict == "errored")
    let command = try #require(errored.explain)
    #expect(command.hasPrefix("CONFORMANCE_FAULT='trap:\(id)' \(Self.binary) explain '\(id)'"), "\(command)")
    let explained = try Self.shell(command, in: URL(fileURLWithPath: "/tmp"))
    // The case was asked in a child, which the trap ended; explain itself says what a run
    // says, and exits as a run does (it died from SIGILL, 132, with a backtrace for output).
    #expect(!explained.signalled && explained.status == 1, "exit \(explained.status): \(explained.output.suffix(300))")
    let said = explained.output.split(separator: "\n").map(String.init)
    #expect(said.contains("inputs:   calendar: gregorian › fw: 1 › zone: UTC › month: 2011-05-01"), "\(said)")
    #expect(said.contains("status:   errored (trap (SIGILL) in Fault.inject(_:) at Fault.swift:47)"), "\(said)")
    // 1 May 2011 was a Sunday: a Sunday-first grid has no blank before it.
    #expect(said.contains { $0.hasPrefix("expected: 0   [libicu ") }, "\(said)")
    #expect(said.contains { $0.contains("message: ") && $0.contains("CONFORMANCE_FAULT trap at \(id)") }, "\(said)")
    #expect(said.last == "exit 1: this case would fail a run (--fail-on unexpected)", "\(said)")
  }
}
