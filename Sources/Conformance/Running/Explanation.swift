import Foundation
import ICUOracle
import Synchronization

/// `conformance explain <case-id>`: re-runs one case and prints its inputs and values.
package enum Explanation {
  /// Whether a run sweeps the case: the default selection (the core corpus), a run of the
  /// case's own locale, calendar, zone and years (`corpus`, which explain loads), or only an
  /// `--exhaustive` one (the month selection takes other months). Explain computes any id it
  /// can read, so a case no run sweeps must say so, not read as a pass of the night.
  static func planNote(_ id: CaseID, check: any Check, corpus: Corpus, request: CorpusRequest) -> String {
    func sweeps(_ corpus: Corpus) -> Bool {
      Plan.make(corpus: corpus, checks: [check]).steps.contains { $0.cases().contains(id) }
    }
    if let core = try? Corpus.load(CorpusRequest(corporaDirectory: request.corporaDirectory)), sweeps(core) {
      return "in the core corpus's plan (a run with no selection sweeps it)"
    }
    var flags: [String] = []
    if let locale = id.locale { flags += ["--locales", locale] }
    if let calendar = id.calendar { flags += ["--calendars", calendar] }
    if let zone = id.zone { flags += ["--time-zones", zone] }
    flags += ["--years", "\(request.years.lowerBound)...\(request.years.upperBound)"]
    if sweeps(corpus) {
      return "not in the core corpus's plan: a run with no selection does not sweep it; "
        + flags.joined(separator: " ") + " does"
    }
    var every = request
    every.exhaustive = true
    if let all = try? Corpus.load(every), sweeps(all) {
      return "not in any run's plan but an --exhaustive one: the month selection takes other months of "
        + "this zone (" + (flags + ["--exhaustive"]).joined(separator: " ") + " sweeps it)"
    }
    return "not in any run's plan: no selection sweeps this case (its values below are computed all the same)"
  }

  /// Evaluates the case named by `text`, reviews it with `waivers` as a run would, and
  /// describes it. Exits 1 only when the case would fail a run (`--fail-on unexpected`):
  /// a waived failure exits 0 and says which waiver explains it and why.
  ///
  /// - Throws: `InputError` when the id is malformed, names something libicu does not know,
  ///   or the waiver file is bad.
  package static func run(_ text: String, corporaDirectory: URL, waivers: URL? = nil,
                         subject: Subject = .pickerLogic)
    throws -> (status: ExitStatus, lines: [String])
  {
    try run(text, corporaDirectory: corporaDirectory, waivers: waivers, subject: subject, fault: nil)
  }

  /// `run`, or, with `fault`, the case as the child that asked the subject ended on it.
  static func run(_ text: String, corporaDirectory: URL, waivers: URL?, subject: Subject, fault: CaseFault?)
    throws -> (status: ExitStatus, lines: [String])
  {
    let id = try CaseID(parsing: text)
    guard let check = CheckCatalog.check(id.check) else {
      throw InputError("unknown check '\(id.check)' in case id '\(text)'")
    }
    let missing = check.dimensions.filter { dimension in
      switch dimension {
      case .locale: id.locale == nil
      case .calendar: id.calendar == nil
      case .firstWeekday: id.firstWeekday == nil
      case .zone: id.zone == nil
      case .month: id.month == nil
      case .variant: id.variant == nil
      }
    }
    guard missing.isEmpty else {
      throw InputError("case id '\(text)' lacks \(missing.map(\.rawValue).joined(separator: ", "))")
    }
    var request = CorpusRequest(corporaDirectory: corporaDirectory)
    request.locales = id.locale.map { .list([$0]) } ?? .list(["en_US"])
    request.calendars = id.calendar.map { .list([$0]) } ?? .list(["gregorian"])
    request.zones = id.zone.map { .list([$0]) } ?? .list(["UTC"])
    let variantYear = id.variant.flatMap { $0.hasPrefix("year-") ? Int($0.dropFirst(5)) : nil }
    if let year = id.month?.gregorian.year ?? variantYear {
      request.years = max(year - 1, CorpusRequest.supportedYears.lowerBound)...min(
        year + 1, CorpusRequest.supportedYears.upperBound)
    }
    if !check.dimensions.contains(.locale), id.firstWeekday == .own {
      throw InputError("case id '\(text)': fw=own needs a locale; use 1…7")
    }
    let corpus = try Corpus.load(request)
    let variants = check.variants(in: corpus)
    if let variant = id.variant, !variants.contains(variant) {
      throw InputError("case id '\(text)': variant '\(variant)' is not one of "
        + variants.prefix(8).joined(separator: ", ") + (variants.count > 8 ? ", …" : ""))
    }
    let waiverList = try waivers.map { url throws(InputError) in try WaiverFile.load(url) } ?? []
    // The footer names the subject it ran, as the run's own does.
    let (review, versions) = try Review.ofRun(subject, waivers: waiverList, baseline: nil)
    // The subject faulted in the child that asked it (`isolated`): libicu's expectation is
    // computed against placeholder answers, so none of the subject's code runs here.
    let evaluator = fault == nil ? CaseEvaluator(corpus: corpus, subject: subject, review: review)
      : CaseEvaluator(context: EvaluationContext(corpus: corpus, subject: FaultedExpectation.placeheld(subject)),
                      triage: nil, review: review)
    let (context, triage) = (evaluator.context, evaluator.triage)
    if id.month != nil { _ = try context.month(of: id) }
    var record: CaseRecord
    if let fault {
      // Against placeholders, and without the run's injected fault: libicu's side alone.
      var outcome = Outcome.errored(fault.detail.first ?? "")
      (outcome.pattern, outcome.detail) = (fault.signature, fault.detail)
      outcome.expected = FaultedExpectation.expected(id, check: check, context: context)
      record = CaseRecord(id: id, step: 0, outcome: outcome)
      review.apply(&record)
    } else {
      // An executor is asked as a run asks it: in rounds, until the case waits for nothing.
      record = evaluator.reviewed(id, check: check)
    }
    let outcome = record.outcome
    // Foundation's ICU's own view of the case, for its intermediate values.
    let second = triage.map { $0.outcome(of: id, check: check) }
    var lines = [
      "case:     \(id)",
      "check:    \(check.id): \(check.summary)",
      "inputs:   \(id.coordinates)",
      subject.executor.map { "subject:  \(subject.name), the executor exec:\($0.command) (asked now)" }
        ?? (subject.isOwn ? "subject:  \(subject.name), a team's own functions (ConformanceKit)"
          : "subject:  \(subject.name), built in (a case of a run with --subject exec:… is explained "
            + "with the same --subject, as the run's own explain commands are)"),
    ]
    if let spelling = id.locale {
      lines.append("locale:   \(spelling) (libicu id \(try Corpus.harness { try corpus.localeCatalog.icuID(for: spelling) }))")
    }
    lines.append("plan:     " + planNote(id, check: check, corpus: corpus, request: request))
    lines.append("status:   \(record.status.rawValue)"
      + (outcome.pattern.isEmpty ? "" : " (\(outcome.pattern))")
      + (record.review.triage.map { ", triage \($0.rawValue)" } ?? ""))
    if let id = record.review.waiver, let waiver = review.waivers.first(where: { $0.id == id }) {
      lines.append("waiver:   \(waiver.id) (\(waiver.location))"
        + (record.status == .unexpectedPass ? ": says this case fails, and it passes" : ""))
      lines.append("  reason: \(waiver.reason)")
      if !waiver.link.isEmpty { lines.append("  link:   \(waiver.link)") }
    }
    if let fault {
      lines.append("expected: \(CodePoints.annotate(outcome.expected.description))   [libicu \(versions.oracle.icu)]")
      lines.append("actual:   none: \(fault.detail.first ?? fault.signature)   [\(subject.name)]")
    } else {
      lines += values(expected: outcome.expected, actual: outcome.actual,
                      oracle: "libicu \(versions.oracle.icu)", subject: subject.name,
                      second: second.map { ($0.expected, "Foundation's ICU \(versions.subjectICU?.icu ?? "?")") })
    }
    if let months = outcome.months {
      lines.append("month:    libicu reads \(months.oracle); the harness's Foundation Calendar reads \(months.subject)"
        + (second?.months.map { "; Foundation's ICU reads \($0.oracle)" } ?? ""))
    }
    lines.append(fault == nil ? "libicu's view:" : "the fault (the case was asked in a child process, which it ended):")
    lines += outcome.detail.map { "  \(CodePoints.annotate($0))" }
    if let second, second.detail != outcome.detail, !second.detail.isEmpty {
      lines.append("Foundation's ICU's view:")
      lines += second.detail.map { "  \(CodePoints.annotate($0))" }
    } else if triage == nil && fault == nil {
      lines.append("triage: off (\(corpus.triageProblem ?? "Foundation's ICU is not reachable"))")
    }
    lines.append(versions.summary)
    let counted = FailOn.unexpected.counts(record)
    lines.append(counted ? "exit 1: this case would fail a run (--fail-on unexpected)"
      : record.status == .waived ? "exit 0: a known difference, explained by its waiver"
      : record.status == .oracleStale ? "exit 0: oracle-stale, libicu's data is older than the release the "
        + "subject declares (the reference above decides; --oracle-stale fail would count it)"
      : "exit 0: this case would not fail a run")
    return (counted ? .unexpected : .clean, lines)
  }

  /// Set in the environment of the child that `isolated` asks.
  static let childVariable = "CONFORMANCE_EXPLAIN_CHILD"

  /// `run` in a child process of this executable (its own arguments again), so a subject that
  /// traps or loops on the case ends the child, not the explanation: then the case reads as a
  /// run reads it, errored with the fault's signature, its inputs and libicu's expected value
  /// beside the fault, and the exit status is 1, not the crash's signal. A child that
  /// answers passes its lines and status through. An executor's subject is asked in this
  /// process: the executor is a process of its own already.
  package static func isolated(_ text: String, corporaDirectory: URL, waivers: URL? = nil,
                              subject: Subject = .pickerLogic,
                              limit seconds: Double = 30)
    throws -> (status: ExitStatus, lines: [String])
  {
    let environment = ProcessInfo.processInfo.environment
    guard environment[childVariable] == nil, subject.executor == nil else {
      return try run(text, corporaDirectory: corporaDirectory, waivers: waivers, subject: subject)
    }
    _ = try CaseID(parsing: text)
    var childEnvironment = environment
    childEnvironment[childVariable] = "1"
    let process: ChildProcess
    do {
      // Its output is read as it comes (a full pipe would hold the child), and whole: it is
      // the explanation.
      process = try ChildProcess(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                 arguments: Array(CommandLine.arguments.dropFirst()),
                                 environment: WorkerProcess.backtracing(childEnvironment),
                                 input: false, output: .collected, errors: true)
    } catch {
      throw HarnessError("explain could not start itself again to ask the subject: \(error)")
    }
    // A run's ceiling: 10 s of CPU, or `seconds` in all.
    var polls = 0
    let timedOut = !process.awaitExit(within: seconds, every: 0.01) {
      polls += 1
      return polls % 10 == 0 && process.cpuSeconds > seconds / 3
    }
    var spent = 0.0
    if timedOut {
      // Stopped as a worker's watchdog stops a hung case: the backtracer says where it spun.
      spent = process.cpuSeconds
      process.kill(SIGABRT)
      if !process.awaitExit(within: 5, every: 0.01) { process.kill() }
    }
    let end = process.waitUntilExit()
    let answered = String(decoding: process.collectedOutput(), as: UTF8.self)
    process.release()
    let tail = process.stderr ?? Tail()
    if !timedOut, case .exited(let status) = end, let exit = ExitStatus(rawValue: status) {
      let message = tail.text.split(separator: "\n").last { $0.hasPrefix("Error: ") }
        .map { String($0.dropFirst("Error: ".count)) } ?? tail.text
      switch exit {
      case .badInput: throw InputError(message)
      case .harnessFailure: throw HarnessError(message)
      default:
        var lines = answered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return (exit, lines)
      }
    }
    let kind: CaseFault.Kind = timedOut
      ? .hung(HangNote(step: 0, position: 0, cpuSeconds: spent, wallSeconds: seconds,
                       limit: CaseLimit(cpu: WorkerLimits.defaultCaseCPU, wall: seconds)))
      : end.faultKind
    let fault = CaseFault(kind: kind, crash: CrashReport(tail.text))
    return try run(text, corporaDirectory: corporaDirectory, waivers: waivers, subject: subject, fault: fault)
  }

  /// Expected and actual: on one line each, or, for lists that differ, item by item, one per
  /// line, each side in its own column, `≠` marking the items that differ.
  static func values(expected: Value, actual: Value, oracle: String, subject: String = "PickerLogic",
                     second: (Value, String)?) -> [String] {
    let annotate = { (value: Value) in CodePoints.annotate(value.description) }
    guard case .list(let wanted) = expected, case .list(let got) = actual, expected != actual else {
      var lines = ["expected: \(annotate(expected))   [\(oracle)]"]
      if let (value, name) = second { lines.append("expected: \(annotate(value))   [\(name)]") }
      lines.append("actual:   \(annotate(actual))   [\(subject)]")
      return lines
    }
    let secondList: [Value]? = if case .list(let items)? = second?.0 { items } else { nil }
    let count = max(wanted.count, got.count, secondList?.count ?? 0)
    let cell = { (items: [Value], index: Int) in index < items.count ? annotate(items[index]) : "—" }
    let width = (0..<count).map { cell(wanted, $0).count }.max() ?? 0
    let differing = (0..<count).filter { cell(wanted, $0) != cell(got, $0) }.count
    var lines = ["values:   \(differing) of \(count) items differ (≠); expected [\(oracle)] | actual [\(subject)]"
      + (secondList == nil ? "" : " | expected [\(second!.1)]")]
    for index in 0..<count {
      let (left, right) = (cell(wanted, index), cell(got, index))
      let mark = left == right ? " " : "≠"
      var line = "  \(mark) [\(index)] " + left.padding(toLength: max(width, left.count), withPad: " ", startingAt: 0)
        + " | " + right
      if let secondList { line += " | " + cell(secondList, index) }
      lines.append(line)
    }
    if secondList == nil, let (value, name) = second {
      lines.append("expected: \(annotate(value))   [\(name)]")
    }
    return lines
  }
}
