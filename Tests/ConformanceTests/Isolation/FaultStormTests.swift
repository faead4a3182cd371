@testable import Conformance
import Foundation
import Testing

@Suite("The breaker and the limits of worker cases")
struct BreakerTests {
  let trap = "trap (SIGILL) in Fault.inject(_:) at Fault.swift:47"

  /// A check in a calendar, as a worker's cases are grouped.
  func g(_ check: String, _ calendar: String) -> Breaker.Group { Breaker.Group(check: check, calendar: calendar) }

  @Test("a group trips after three faults in a row with one signature, not before")
  func threshold() {
    var breaker = Breaker(threshold: 3)
    #expect(breaker.faulted(g("leading-blanks", "hebrew"), signature: trap) == nil)
    #expect(breaker.faulted(g("leading-blanks", "hebrew"), signature: trap) == nil)
    let trip = breaker.faulted(g("leading-blanks", "hebrew"), signature: trap)
    #expect(trip == Breaker.Trip(group: "leading-blanks · hebrew", signature: trap, faults: 3))
    // Tripped for good: any later fault of the group returns the same trip.
    #expect(breaker.faulted(g("leading-blanks", "hebrew"), signature: "hang") == trip)
  }

  @Test("a completed case, or another signature, ends the streak")
  func streaks() {
    var breaker = Breaker(threshold: 3)
    let group = g("month-days", "chinese")
    _ = breaker.faulted(group, signature: trap)
    _ = breaker.faulted(group, signature: trap)
    breaker.completed(group)
    #expect(breaker.faulted(group, signature: trap) == nil)
    #expect(breaker.faulted(group, signature: trap) == nil)
    // A different function: a new streak of one.
    #expect(breaker.faulted(group, signature: "hang in X.y() at X.swift:1") == nil)
    #expect(breaker.faulted(group, signature: trap) == nil)
    #expect(breaker.trips.isEmpty)
  }

  @Test("where zones completed, a fault trips its zones alone; where none did, a second zone trips the calendar")
  func zones() {
    var breaker = Breaker(threshold: 3)
    let group = g("field-roundtrip", "gregorian")
    // As in the full sweep: UTC works, two legacy zones trap.
    breaker.completed(group, zone: "UTC")
    for _ in 0..<3 { _ = breaker.faulted(group, zone: "SystemV/AST4ADT", signature: trap) }
    #expect(breaker.trip(group, zone: "SystemV/AST4ADT")?.group == "field-roundtrip · gregorian · SystemV/AST4ADT")
    #expect(breaker.trip(group, zone: "UTC") == nil)
    // Known: the next zone with the signature trips at its first fault, that zone only.
    let second = breaker.faulted(group, zone: "SystemV/CST6CDT", signature: trap)
    #expect(second?.group == "field-roundtrip · gregorian · SystemV/CST6CDT")
    #expect(second?.faults == 1)
    #expect(breaker.trip(group, zone: "Europe/Paris") == nil)
    // Another calendar: its zones run until they fault, and it trips only the faulting zone.
    let buddhist = g("field-roundtrip", "buddhist")
    breaker.completed(buddhist, zone: "UTC")
    #expect(breaker.trip(buddhist, zone: "SystemV/AST4ADT") == nil)
    #expect(breaker.faulted(buddhist, zone: "SystemV/AST4ADT", signature: trap)?.group
      == "field-roundtrip · buddhist · SystemV/AST4ADT")
    #expect(breaker.trip(buddhist, zone: "Asia/Tokyo") == nil)
    // A storm: no zone ever completes, so the second zone trips the whole calendar, taking
    // over the first zone's trip (4 faults in all), and a third calendar trips at once.
    var storm = Breaker(threshold: 3)
    let hebrew = g("month-days", "hebrew")
    for _ in 0..<3 { _ = storm.faulted(hebrew, zone: "UTC", signature: trap) }
    let whole = storm.faulted(hebrew, zone: "Asia/Tehran", signature: trap)
    #expect(whole?.group == "month-days · hebrew")
    #expect(whole?.faults == 4)
    #expect(storm.trips.map(\.group) == ["month-days · hebrew"])
    // Cases of the first zone queued "not run" under its trip before the calendar's took it
    // over count in the calendar's.
    storm.notRun(hebrew, zone: "UTC", count: 5)
    #expect(storm.trips.first?.notRun == 5)
    #expect(storm.faulted(g("month-days", "chinese"), zone: "UTC", signature: trap)?.group
      == "month-days · chinese")
  }

  @Test("a signature that tripped one calendar trips another of the same check at its first fault, and no other check")
  func knownSignature() {
    var breaker = Breaker(threshold: 3)
    for _ in 0..<3 { _ = breaker.faulted(g("same-day-closing", "buddhist"), signature: trap) }
    let second = breaker.faulted(g("same-day-closing", "chinese"), signature: trap)
    #expect(second?.faults == 1)
    #expect(second?.reason.contains("elsewhere in this check") == true)
    // Other calendars without a fault are untouched; so is another check.
    #expect(breaker.trip(g("same-day-closing", "gregorian")) == nil)
    #expect(breaker.faulted(g("range-roles", "chinese"), signature: trap) == nil)
    #expect(Breaker.group(CaseID(check: "return-clamp", zone: "UTC")).description == "return-clamp")
  }

  @Test("a signature that trips three calendars whole, where no case of the check completed, trips the check; one completed case anywhere keeps every calendar its own")
  func checkTrip() {
    var storm = Breaker(threshold: 3)
    for _ in 0..<3 { _ = storm.faulted(g("same-day-closing", "gregorian"), signature: trap) }
    _ = storm.faulted(g("same-day-closing", "buddhist"), signature: trap)
    #expect(storm.trip(g("same-day-closing", "hebrew")) == nil)
    let third = storm.faulted(g("same-day-closing", "coptic"), signature: trap)
    #expect(third?.group == "same-day-closing · coptic")
    // A calendar that never ran a case is not run, under the check's trip (5 faults in all).
    let check = storm.trip(g("same-day-closing", "hebrew"))
    #expect(check?.group == "same-day-closing")
    #expect(check?.faults == 5)
    #expect(check?.reason.contains("in 3 calendars of same-day-closing") == true)
    #expect(storm.trip(g("range-roles", "hebrew")) == nil)
    storm.notRun(g("same-day-closing", "hebrew"), count: 7)
    #expect(storm.trips.first { $0.group == "same-day-closing" }?.notRun == 7)

    // HorizonCalendar's shape: a loop in some calendars, while others complete.
    var loop = Breaker(threshold: 3)
    loop.completed(g("days", "gregorian"))
    for _ in 0..<3 { _ = loop.faulted(g("days", "chinese"), signature: trap) }
    _ = loop.faulted(g("days", "dangi"), signature: trap)
    _ = loop.faulted(g("days", "japanese"), signature: trap)
    #expect(loop.trip(g("days", "hebrew")) == nil)
    #expect(loop.trips.count == 3)
  }

  @Test("an executor's group (a function in one calendar and zone) trips as a whole; once a signature has tripped, each new group of the function sends one question alone")
  func executorGroups() {
    var breaker = Breaker(threshold: 3)
    let tehran = Breaker.Group(check: "closes", calendar: "persian", zone: "Asia/Tehran")
    let utc = Breaker.Group(check: "closes", calendar: "persian", zone: "UTC")
    let days = Breaker.Group(check: "days", calendar: "persian", zone: "UTC")
    #expect(!breaker.probe(utc))
    _ = breaker.faulted(tehran, signature: "malformed")
    breaker.completed(tehran)
    _ = breaker.faulted(tehran, signature: "malformed")
    _ = breaker.faulted(tehran, signature: "malformed")
    #expect(breaker.trip(tehran) == nil)
    #expect(breaker.faulted(tehran, signature: "malformed")?.group == "closes · persian · Asia/Tehran")
    // UTC has asked nothing yet: its next question goes alone, once; another function's
    // questions go together.
    #expect(breaker.probe(utc))
    breaker.probed(utc)
    #expect(!breaker.probe(utc))
    #expect(!breaker.probe(days))
    // The signature is known for the function: UTC trips at its first fault with it.
    #expect(breaker.faulted(utc, signature: "malformed")?.faults == 1)
  }

  @Test("limits: 5 × the slowest case of the case's check and calendar in the model, 2 s to 10 s of CPU, whatever ran before; 3 × in wall time; bad settings exit 2")
  func limits() throws {
    // A model by hand: same-day-closing met a 1.2 s case in chinese and 0.3 s in dangi, none
    // in gregorian that lasted a poll; range-roles met 2.5 s; weekday-symbols was never
    // timed (no slowest case). A zone class's rate says nothing of the limit.
    let costs = StepCosts(measured: "by hand", checks: [
      "same-day-closing": .init(perCase: 1000, slowestCase: 1.2, calendars: [
        "chinese": .init(perCase: 7000, slowestCase: 1.2, zoneClasses: [
          "skipped-midnight": .init(perCase: 14000, slowestCase: 0.1)]),
        "dangi": .init(perCase: 5000, slowestCase: 0.3),
        "gregorian": .init(perCase: 100, slowestCase: 0)]),
      "range-roles": .init(perCase: 50000, slowestCase: 2.5),
      "weekday-symbols": .init(perCase: 20)])
    var limits = WorkerLimits(costs: costs)
    func limit(_ check: String, _ calendar: String?) -> CaseLimit {
      limits.caseLimit(check: check, calendar: calendar)
    }
    // 5 × 1.2 s; 5 × 0.3 s and 5 × 0 are under the 2 s floor; a calendar the model lacks
    // takes its check's.
    #expect(limit("same-day-closing", "chinese") == CaseLimit(cpu: 6, wall: 18))
    #expect(limit("same-day-closing", "dangi") == CaseLimit(cpu: 2, wall: 6))
    #expect(limit("same-day-closing", "gregorian") == CaseLimit(cpu: 2, wall: 6))
    #expect(limit("same-day-closing", "hebrew") == CaseLimit(cpu: 6, wall: 18))
    // 5 × 2.5 s is past the 10 s ceiling; a check never timed, or unknown, gets the ceiling.
    #expect(limit("range-roles", "chinese") == CaseLimit(cpu: 10, wall: 30))
    #expect(limit("weekday-symbols", "gregorian") == CaseLimit(cpu: 10, wall: 30))
    #expect(limit("month-grid", nil) == CaseLimit(cpu: 10, wall: 30))
    // A slow case seen before does not raise the next one's limit (it used to: 50 × it).
    limits.observe("same-day-closing", slowestCaseCPU: 4, jobSeconds: 2)
    #expect(limit("same-day-closing", "dangi") == CaseLimit(cpu: 2, wall: 6))
    // A request: 60 s, or twice the ceiling's wall limit + 10 s (70), or 20 × the longest request.
    #expect(limits.jobLimit("month-days") == 70)
    limits.observe("month-days", slowestCaseCPU: 0.1, jobSeconds: 5)
    limits.observe("month-days", slowestCaseCPU: 0.05, jobSeconds: 1)
    #expect(limits.jobLimit("month-days") == 100)
    // CONFORMANCE_CASE_TIMEOUT is every case's limit, the model's classes aside.
    let fromEnvironment = try WorkerLimits.fromEnvironment(["CONFORMANCE_CASE_TIMEOUT": "0.5"], costs: costs)
    #expect(fromEnvironment.caseLimit(check: "range-roles", calendar: nil) == CaseLimit(cpu: 0.5, wall: 1.5))
    #expect(fromEnvironment.caseLimit(check: "same-day-closing", calendar: "gregorian") == CaseLimit(cpu: 0.5, wall: 1.5))
    #expect(fromEnvironment.jobLimit("x") == 60)
    #expect(throws: InputError.self) { try WorkerLimits.fromEnvironment(["CONFORMANCE_STEP_TIMEOUT": "-1"]) }
    // --case-timeout is the same rule, and wins over the environment.
    let given = try WorkerLimits.fromEnvironment(["CONFORMANCE_CASE_TIMEOUT": "0.5"], costs: costs, caseTimeout: 3)
    #expect(given.caseLimit(check: "range-roles", calendar: nil) == CaseLimit(cpu: 3, wall: 9))
    // A subject the model never timed (a team's, an executor): 5 × the slowest case its
    // workers answered in the check so far, 2 s before any (not the 10 s ceiling), at most 10.
    var measured = try WorkerLimits.fromEnvironment([:], costs: nil)
    #expect(measured.caseLimit(check: "month-days", calendar: "chinese") == CaseLimit(cpu: 2, wall: 6))
    measured.observe("month-days", slowestCaseCPU: 0.9, jobSeconds: 3)
    #expect(measured.caseLimit(check: "month-days", calendar: "gregorian") == CaseLimit(cpu: 4.5, wall: 13.5))
    #expect(measured.caseLimit(check: "leading-blanks", calendar: "chinese") == CaseLimit(cpu: 2, wall: 6))
    measured.observe("month-days", slowestCaseCPU: 3, jobSeconds: 3)
    #expect(measured.caseLimit(check: "month-days", calendar: "chinese") == CaseLimit(cpu: 10, wall: 30))
    // After a worker's first case (which loads Foundation's data), at least 0.5 s, not 2.
    #expect(measured.warmLimit(check: "leading-blanks") == CaseLimit(cpu: 0.5, wall: 1.5))
    measured.observe("leading-blanks", slowestCaseCPU: 0.2, jobSeconds: 1)
    #expect(measured.warmLimit(check: "leading-blanks") == CaseLimit(cpu: 1, wall: 3))
    #expect(measured.warmLimit(check: "month-days") == CaseLimit(cpu: 10, wall: 30))
    // The model's limits and a fixed one have no warm limit: every case gets its own.
    #expect(try WorkerLimits.fromEnvironment([:], costs: costs).warmLimit(check: "leading-blanks") == nil)
    #expect(try WorkerLimits.fromEnvironment([:], costs: nil, caseTimeout: 3).warmLimit(check: "leading-blanks") == nil)
  }

  @Test("the cost model's slowest case per check and calendar: the most any of their steps met, 0 for a worker's steps without one")
  func slowestCaseFit() throws {
    // Steps of same-day-closing by hand: chinese in two zones, 0.4 s and 1.3 s slowest; dangi
    // in one whose worker saw no case last a poll.
    func step(_ index: Int, calendar: String, zone: String, slowest: Double?) -> StepRecord {
      var counts = StatusCounts()
      counts.passed = 10
      var record = StepRecord(index: index, check: "same-day-closing", name: "x",
                              plan: "same-day-closing|calendar=\(calendar)|zone=\(zone)\t\t\t", counts: counts,
                              seconds: 1)
      record.slowestCaseCPUSeconds = slowest
      return record
    }
    let classes = ["Asia/Chita": "skipped-midnight", "America/Havana": "repeated-midnight"]
    let steps = [step(0, calendar: "chinese", zone: "Asia/Chita", slowest: 0.4),
                 step(1, calendar: "chinese", zone: "America/Havana", slowest: 1.3),
                 step(2, calendar: "dangi", zone: "America/Havana", slowest: nil)]
    let isolated = StepCosts.fit(steps, zoneClasses: classes, measured: "by hand", isolated: true)
    let check = isolated.checks["same-day-closing"]
    #expect(check?.slowestCase == 1.3)
    #expect(check?.calendars?["chinese"]?.slowestCase == 1.3)
    #expect(check?.calendars?["dangi"]?.slowestCase == 0)
    // Not per zone class: a zone's class depends on the years a run sweeps.
    #expect(check?.calendars?["chinese"]?.zoneClasses?["skipped-midnight"] != nil)
    #expect(check?.calendars?["chinese"]?.zoneClasses?["skipped-midnight"]?.slowestCase == nil)
    #expect(isolated.slowestCase(check: "same-day-closing", calendar: "dangi") == 0)
    // In process nothing timed a case: a step without one says nothing of its calendar.
    let inProcess = StepCosts.fit(steps, zoneClasses: classes, measured: "by hand")
    #expect(inProcess.checks["same-day-closing"]?.calendars?["dangi"]?.slowestCase == nil)
    #expect(inProcess.slowestCase(check: "same-day-closing", calendar: "dangi") == 1.3)
  }

  @Test("the same case gets the same limit and verdict in a single run and in each shard: same-day-closing · chinese · Asia/Chita 2014-10-24 (1.2 s of Foundation's CPU) passes in both", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
  func sameLimitInEveryShard() throws {
    // The limit from the committed model, read here as plain JSON: 5 × the slowest case of
    // same-day-closing · chinese, 2 s to 10 s.
    let model = try #require(try JSONSerialization.jsonObject(
      with: Data(contentsOf: corpora.appendingPathComponent("step-costs.json"))) as? [String: Any])
    let chinese = (((model["checks"] as? [String: Any])?["same-day-closing"] as? [String: Any])?["calendars"]
      as? [String: Any])?["chinese"] as? [String: Any]
    let slowest = try #require(chinese?["slowestCase"] as? Double)
    let expected = min(10, max(2, 5 * slowest))
    let selection = ["--checks", "same-day-closing", "--calendars", "chinese",
                     "--time-zones", "Asia/Chita,America/Asuncion", "--years", "2014...2014",
                     "--record", "all", "--jobs", "2"]
    let single = try ExecutableRun(selection, environment: [:])
    let shards = try (1...2).map { try ExecutableRun(selection + ["--shard", "\($0)/2"], environment: [:]) }
    let chita = "same-day-closing|calendar=chinese|zone=Asia/Chita|month=2014-10-24"
    for run in [single] + shards {
      let limits = try #require(run.record.run.isolation?.checks.first { $0.check == "same-day-closing" })
      #expect(limits.caseCPULimitSeconds == expected)
      #expect(limits.leastCaseCPULimitSeconds == expected)
      #expect(run.summary.errored == 0, "\(run.stdout)")
    }
    // Each case in one shard, with the verdict it has in the single run.
    #expect(shards.map(\.cases.count).reduce(0, +) == single.cases.count)
    #expect(shards.allSatisfy { !$0.cases.isEmpty })
    let inShards = Dictionary(shards.flatMap(\.cases).map { ($0.id.description, $0.status) }, uniquingKeysWith: { a, _ in a })
    for record in single.cases { #expect(inShards[record.id.description] == record.status, "\(record.id)") }
    let verdict = try #require(single.cases.first { $0.id.description == chita }?.status)
    #expect(verdict != .errored)
  }

  @Test("the watchdog times a case from the first poll that sees it: CPU past the limit, or wall past its own")
  func watchdogPolls() {
    let watch = CaseWatch()
    let start = ContinuousClock.now
    let limit = CaseLimit(cpu: 1, wall: 3)
    // Nothing running: nothing to stop, nothing timed.
    #expect(watch.poll(cpu: 50, wall: start) == nil)
    watch.begin(step: 4, position: 7, limit: limit)
    // First sight at 100 s of thread CPU; 0.5 s later it is within its limit.
    #expect(watch.poll(cpu: 100, wall: start) == nil)
    #expect(watch.poll(cpu: 100.5, wall: start + .milliseconds(500)) == nil)
    // 1.2 s of CPU since first sight is past 1 s: stopped, with what it spent.
    let note = watch.poll(cpu: 101.2, wall: start + .milliseconds(1300))
    #expect(note?.step == 4 && note?.position == 7 && note?.limit == limit)
    #expect(abs((note?.cpuSeconds ?? 0) - 1.2) < 1e-9 && abs((note?.wallSeconds ?? 0) - 1.3) < 1e-9)
    watch.end()
    #expect(watch.poll(cpu: 200, wall: start + .seconds(10)) == nil)
    // The slowest case seen, once; then nothing until another is seen.
    #expect(abs(watch.takeSlowest() - 1.2) < 1e-9 && watch.takeSlowest() == 0)
    // A case that blocks spends no CPU: its wall time stops it (3.5 s past first sight).
    watch.begin(step: 5, position: 0, limit: limit)
    #expect(watch.poll(cpu: 300, wall: start) == nil)
    #expect(watch.poll(cpu: 300, wall: start + .seconds(2)) == nil)
    #expect(abs((watch.poll(cpu: 300, wall: start + .milliseconds(3500))?.wallSeconds ?? 0) - 3.5) < 1e-9)
    // A new case is timed afresh: the previous one's first sight does not carry over.
    watch.begin(step: 5, position: 1, limit: limit)
    #expect(watch.poll(cpu: 400, wall: start + .seconds(20)) == nil)
    #expect(watch.poll(cpu: 400.9, wall: start + .seconds(21)) == nil)
  }

  @Test("time a case spends off the clock (a reference release read for the whole run) is not the case's")
  func offTheClock() {
    let watch = CaseWatch()
    let start = ContinuousClock.now
    watch.begin(step: 1, position: 0, limit: CaseLimit(cpu: 2, wall: 6))
    #expect(watch.poll(cpu: 10, wall: start) == nil)
    // Off the clock at 10.5 s of CPU: 3 s of CPU and 4 s of wall later, nothing is judged.
    watch.pause(cpu: 10.5, wall: start + .milliseconds(500))
    #expect(watch.poll(cpu: 13, wall: start + .seconds(4)) == nil)
    watch.resume(cpu: 13.5, wall: start + .milliseconds(4500))
    // Back on: the case has spent 0.5 s before the pause and 1.1 s since, 1.6 s of its 2.
    #expect(watch.poll(cpu: 14.6, wall: start + .seconds(5)) == nil)
    // 0.5 + 2.0 = 2.5 s of CPU, 0.5 + 1.5 = 2 s of wall: past its limit, by its own time.
    let note = watch.poll(cpu: 15.5, wall: start + .seconds(6))
    #expect(abs((note?.cpuSeconds ?? 0) - 2.5) < 1e-9 && abs((note?.wallSeconds ?? 0) - 2) < 1e-9)
    // Off the clock before any poll saw the case: it is first seen once back on (at 23.5 s).
    watch.begin(step: 1, position: 1, limit: CaseLimit(cpu: 2, wall: 6))
    watch.pause(cpu: 20, wall: start + .seconds(10))
    #expect(watch.poll(cpu: 21, wall: start + .seconds(11)) == nil)
    watch.resume(cpu: 22, wall: start + .seconds(12))
    #expect(watch.poll(cpu: 23.5, wall: start + .seconds(13)) == nil)
    #expect(watch.poll(cpu: 25, wall: start + .seconds(14)) == nil)
    #expect(abs((watch.poll(cpu: 25.6, wall: start + .seconds(14))?.cpuSeconds ?? 0) - 2.1) < 1e-9)
  }

  @Test("a worker's first case that reads a tz release for triage is not stopped as hung: month-days · islamic · Antarctica/Vostok, 1 s limits", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
  func referenceReadOffTheClock() throws {
    // Each of these 26 cases fails as a waived data difference, and its triage asks the tz
    // releases for the zone; the first read of a release's transitions took more than 1 s of
    // CPU in a debug build, so before the read went off the clock all 26 errored as
    // "hang in static TSV.read" (each worker that replaced a stopped one read it again).
    let run = try ExecutableRun(["--checks", "month-days", "--locales", "en_US", "--calendars", "islamic",
                                 "--time-zones", "Antarctica/Vostok", "--years", "2022...2023"],
                                environment: ["CONFORMANCE_CASE_TIMEOUT": "1"])
    #expect(run.cases.count == 26 && run.summary.errored == 0, "\(run.stdout)")
    // The triage did read the release (the cases past the first few keep no detail).
    #expect(run.cases.contains { $0.outcome.detail.contains { $0.hasPrefix("reference tz 2022e") } },
            "\(run.stdout)")
  }

  @Test("a fault's signature is what stopped the case and the executable's frame, without the column")
  func signatures() {
    // Swift 6.3's backtracer, abridged: a hang stopped in ICU, called from the subject.
    let hang = CrashReport("""
      *** Program crashed: Aborted at 0x00000000000041ae ***

      Thread 0 "conformance" crashed:

        0      0x00007f0000000001 icu_76::(anonymous namespace)::startOfYear(int, UErrorCode&) + 40 in libFoundationInternationalization.so
        1 [ra] 0x00005600000000a2 specialized Fault.inject(_:) + 900 in conformance at /w/Sources/Conformance/Running/Fault.swift:60:18
        2 [ra] 0x00005600000000b3 static Runner.evaluate(_:step:check:context:triage:) + 512 in conformance at /w/Runner.swift:98:20
      """)
    #expect(hang.frame == "icu_76::(anonymous namespace)::startOfYear(int, UErrorCode&)")
    // A release build's frame names the specialized function; the signature is the debug
    // build's, so a waiver or baseline written against one build matches the other's.
    #expect(hang.executableFrame == "Fault.inject(_:) at Fault.swift:60:18")
    let note = HangNote(step: 1, position: 2, cpuSeconds: 1.01, wallSeconds: 1.2,
                        limit: CaseLimit(cpu: 1, wall: 10))
    let fault = CaseFault(kind: .hung(note), crash: hang)
    #expect(fault.signature == "hang in Fault.inject(_:) at Fault.swift:60")
    // The watchdog's own SIGABRT is not reported as the subject's message.
    #expect(!fault.detail.contains { $0.hasPrefix("message:") })
    #expect(fault.detail.contains("called from: Fault.inject(_:) at Fault.swift:60:18"))
    // One loop in the subject's `days`, stopped at two different instants (a line of the
    // team's function, libm under it): one signature, named by the function, so one group on
    // every surface and one streak for the breaker. The frames stay in the detail.
    let inDays = HangNote(step: 1, position: 2, cpuSeconds: 2.01, wallSeconds: 2.1,
                          limit: CaseLimit(cpu: 2, wall: 6), function: "days")
    let stops = [
      "Thread 0 crashed:\n0 [ra] 0x00005600000000a2 Month.days(in:) + 90 in MyWorker at /t/Sources/Month.swift:41:9\n",
      "Thread 0 crashed:\n0      0x00007f0000000001 __tan_fma + 40 in libm.so.6\n"
        + "1 [ra] 0x00005600000000b3 closure #2 in Month.days(in:) + 12 in MyWorker at /t/Sources/Month.swift:47:13\n",
    ].map { CaseFault(kind: .hung(inDays), crash: CrashReport($0)) }
    #expect(stops.map(\.signature) == ["hang in the subject's days", "hang in the subject's days"])
    #expect(stops[1].detail.first?.hasPrefix("hung in the subject's days: 2.01 s of CPU") == true, "\(stops[1].detail)")
    #expect(stops[1].detail.contains("stopped in: __tan_fma"), "\(stops[1].detail)")
    #expect(stops[1].detail.contains("called from: closure #2 in Month.days(in:) at Month.swift:47:13"), "\(stops[1].detail)")
    #expect(CrashReport.frame("1 [ra] 0x00005600000000a2 closure #1 in specialized Fault.inject(_:) + 9 in conformance at /w/Fault.swift:61:3")
      == "closure #1 in Fault.inject(_:) at Fault.swift:61:3")
    let trap = CaseFault(kind: .signal("SIGILL"), crash: CrashReport("Fatal error: boom\n"))
    #expect(trap.signature == "trap (SIGILL): Fatal error: boom")
    // The runtime's words follow the place when no value is in them: Swift's own text for
    // a closed range whose bounds cross (Swift/ClosedRange.swift), and for an index past the end.
    func trapped(_ message: String) -> String {
      CaseFault(kind: .signal("SIGILL"), crash: CrashReport("""
        \(message)
        Thread 0 crashed:
        0 [ra] 0x00005600000000a2 Seed.closedDays(_:) + 90 in conformance at /w/Sources/Seed.swift:12:30
        """)).signature
    }
    #expect(trapped("Swift/ClosedRange.swift:347: Fatal error: Range requires lowerBound <= upperBound")
      == "trap (SIGILL) in Seed.closedDays(_:) at Seed.swift:12: Range requires lowerBound <= upperBound")
    #expect(trapped("Swift/ContiguousArrayBuffer.swift:691: Fatal error: Index out of range")
      == "trap (SIGILL) in Seed.closedDays(_:) at Seed.swift:12: Index out of range")
    // Words that name a value (an index, a case) would make each case a pattern of its own.
    #expect(trapped("Seed.swift:12: Fatal error: no day 31 in leading-blanks|month=2021-02-01")
      == "trap (SIGILL) in Seed.closedDays(_:) at Seed.swift:12")
    #expect(CaseFault(kind: .exited(3), crash: CrashReport("")).signature == "exit 3")
  }
}

/// Faults everywhere in one check, or in one calendar of a check, against a clean run of the
/// same selection, in worker processes.
@Suite("Fault storms: every affected case reported, everything else as in a clean run", .serialized, .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct FaultStormTests {
  static let selection = ["--locales", "en_US", "--calendars", "gregorian,hebrew",
                          "--time-zones", "UTC,Asia/Tehran", "--years", "2017...2017",
                          "--checks", "leading-blanks,weekday-symbols,month-days", "--jobs", "2"]

  static func run(fault: String?) throws -> ExecutableRun {
    var environment = ["CONFORMANCE_CASE_TIMEOUT": "0.5"]
    if let fault { environment["CONFORMANCE_FAULT"] = fault }
    return try ExecutableRun(selection, environment: environment)
  }

  static let clean = Result { try run(fault: nil) }

  @Test("a storm costs its check (or calendar) alone", arguments: [
    ("trap:*leading-blanks*", "leading-blanks", nil, "trap (SIGILL) in "),
    ("hang:*weekday-symbols*", "weekday-symbols", nil, "hang in "),
    // The real endless loop of Hebrew week intervals (in ICU 76), in one calendar only.
    ("week-of-year:month-days|calendar=hebrew|*", "month-days", "hebrew", "hang in "),
  ] as [(String, String, String?, String)])
  func storm(fault: String, check: String, calendar: String?, signature: String) throws {
    let clean = try Self.clean.get()
    let storm = try Self.run(fault: fault)
    func affected(_ record: CaseRecord) -> Bool {
      record.id.check == check && (calendar == nil || record.id.calendar == calendar)
    }
    #expect(storm.status == 1)
    // Every case outside the storm, record for record, and every other check's counts.
    let (outside, cleanOutside) = (storm.cases.filter { !affected($0) }, clean.cases.filter { !affected($0) })
    #expect(outside.count == cleanOutside.count)
    let difference = zip(outside, cleanOutside).first { $0 != $1 }
    #expect(difference == nil, "first difference: \(difference.map { "\($0.0.id)" } ?? "")")
    for (id, counts) in clean.checks where id != check {
      #expect(storm.checks[id] == counts, "\(id)")
    }
    // Inside: every case listed with the fault's signature as its pattern: errored where it
    // ran and faulted, `not-run` where the breaker stopped it first (never errored: the
    // breaker does not guess), its detail saying why.
    let inside = storm.cases.filter(affected)
    #expect(!inside.isEmpty)
    #expect(storm.checks[check]?.total == clean.checks[check]?.total)
    #expect(clean.checks[check]?.errored == 0)
    let crashed = inside.filter { $0.outcome.verdict == .errored }
    let notRun = inside.filter { $0.outcome.verdict == .notRun }
    #expect(crashed.count + notRun.count == inside.count)
    // Outside is as clean (no errors), so the check's errored and not-run cases are the storm's.
    #expect(storm.checks[check]?.errored == crashed.count)
    #expect(storm.checks[check]?.notRun == notRun.count)
    #expect(storm.record.summary.notRun == notRun.count)
    if calendar == nil { #expect(inside.count == clean.checks[check]?.total) }
    for record in inside {
      let pattern = record.outcome.pattern
      #expect(pattern.hasPrefix(signature), "\(record.id): \(pattern) \(record.outcome.detail)")
      #expect((record.outcome.detail.first ?? "").hasPrefix("not run: ") == (record.outcome.verdict == .notRun),
              "\(record.id): \(record.outcome.verdict) \(record.outcome.detail)")
      // No waiver takes a case not run: it is counted as what it is.
      if record.outcome.verdict == .notRun { #expect(record.status == .notRun, "\(record.id)") }
    }
    // The breaker: three in a row in one zone of the first calendar, one in a second zone
    // (the whole calendar then), then at most one more per calendar and worker (two workers
    // may be in one calendar when it trips).
    let calendars = Set(inside.compactMap(\.id.calendar)).count
    #expect(crashed.count >= 3 && crashed.count <= 4 + 2 * calendars, "\(crashed.count) crashed")
    let trips = storm.record.run.isolation?.trips ?? []
    #expect(trips.map(\.group).sorted() == Set(inside.map { Breaker.group($0.id).description }).sorted())
    #expect(trips.reduce(0) { $0 + $1.notRun } == notRun.count)
    // The console says it, counted as the cases file holds them, and JUnit skips them with
    // the reason, in one testcase of the check.
    let said = "the breaker did not run \(CountText.number(notRun.count)) cases (counted as not run, never as errored)"
    #expect(storm.stdout.contains(said), "\(storm.stdout)")
    #expect(storm.stdout.contains("\(CountText.number(notRun.count)) not run (the breaker)"), "\(storm.stdout)")
    let junit = storm.junit
    #expect(junit.contains("name=\"not run · the breaker stopped a systematic fault\""), "\(junit.prefix(2000))")
    #expect(junit.contains("<skipped message=\"\(CountText.counted(notRun.count, "case")) in "), "\(junit.prefix(2000))")
  }

  /// The case as a storm's groups hold it: all but its detail, and its verdict read as "a
  /// fault of this signature", whether it ran and faulted or the breaker stopped it first.
  static func grouped(_ record: CaseRecord) -> CaseRecord {
    var record = record
    record.outcome.detail = []
    // An errored case carries libicu's expected value; a case not run has none.
    if record.outcome.verdict == .notRun || record.outcome.verdict == .errored {
      (record.outcome.verdict, record.outcome.expected) = (.errored, .null)
    }
    return record
  }

  @Test("a storm sharded in three and merged: every case the single run's pattern, errored or not run, though the shards ran more of its faults")
  func stormMergedEqualsSingleRun() throws {
    let fault = ["CONFORMANCE_CASE_TIMEOUT": "0.5", "CONFORMANCE_FAULT": "trap:*leading-blanks*"]
    let single = try Self.run(fault: fault["CONFORMANCE_FAULT"])
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-storm-shards-\(getpid())-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: base) }
    let shards = (1...3).map { base.appendingPathComponent("shard-\($0)") }
    // The cost model decides which shards hold the trap's cases; those exit 1, any other 0,
    // and at least two must, or no shard would learn the signature alone.
    var trapped = 0
    for (index, out) in shards.enumerated() {
      let run = try Executable.run(Self.selection + ["--shard", "\(index + 1)/3", "--out", out.path],
                                   environment: fault)
      let errored = try runRecord(out).summary.errored
      if errored > 0 { trapped += 1 }
      #expect(run.status == (errored > 0 ? 1 : 0), "shard \(index + 1): \(run.error)")
    }
    #expect(trapped >= 2, "\(trapped) shards hold the trap's cases")
    let merged = base.appendingPathComponent("merged")
    let merge = try Executable.run(["merge"] + shards.map(\.path) + ["--out", merged.path], environment: [:])
    #expect(merge.status == 1, "\(merge.error)")
    let cases = try recordedCases(merged)
    #expect(cases.count == single.cases.count)
    let difference = zip(cases, single.cases).first { Self.grouped($0) != Self.grouped($1) }
    #expect(difference == nil, "first difference: \(difference.map { "\($0.0.id): \($0.0.outcome.pattern) ≠ \($0.1.outcome.pattern)" } ?? "")")
    // Each shard learns the signature alone (three faults in a row before its breaker
    // trips), so the shards ran cases the single run did not: errored there, not run here,
    // the pattern the same. Together they are the same cases.
    let ran = { (cases: [CaseRecord]) in cases.filter { $0.outcome.verdict == .errored }.count }
    #expect(ran(cases) > ran(single.cases), "faulted: \(ran(cases)) merged, \(ran(single.cases)) single")
    var (night, one) = (try runRecord(merged).summary, single.summary)
    #expect(night.errored + night.notRun == one.errored + one.notRun)
    (night.errored, night.notRun, one.errored, one.notRun) = (0, 0, 0, 0)
    #expect(night == one)
    // The night's isolation is every shard's: its trips hold every case not run, and each
    // check's slowest case is the slowest any shard saw (the first shard's alone was kept).
    let isolation = try #require(try runRecord(merged).run.isolation)
    let parts = try shards.map { try #require(try runRecord($0).run.isolation) }
    let notRun = cases.filter { $0.outcome.verdict == .notRun }.count
    #expect(notRun > 0 && isolation.trips.reduce(0) { $0 + $1.notRun } == notRun)
    #expect(Set(isolation.trips.map(\.group)) == Set(parts.flatMap(\.trips).map(\.group)))
    for limits in isolation.checks {
      let slowest = parts.compactMap { $0.checks.first { $0.check == limits.check }?.slowestCaseCPUSeconds }.max()
      #expect(limits.slowestCaseCPUSeconds == slowest, "\(limits.check)")
    }
  }
}

@Suite("Workers see the parent's corpus")
struct WorkerSetupTests {
  @Test("a worker's zone standing for UTC is its parent's, though it gets the zones without their offsets")
  func utcZone() throws {
    // Asia/Tokyo (+09:00, no transition since 1951) and Africa/Abidjan (+00:00, none since
    // 1912) both sweep every month; only Abidjan has offset 0, so it stands for UTC. A
    // worker's zones carry no offsets: chosen there, the first zone would do.
    var request = CorpusRequest(corporaDirectory: corpora)
    request.zones = .list(["Asia/Tokyo", "Africa/Abidjan"])
    request.years = 2020...2020
    let parent = try Corpus.load(request)
    #expect(parent.zones.filter { $0.sweepsEveryMonth }.count == 2)
    #expect(parent.utcZone == "Africa/Abidjan")
    let run = WorkerSetup.Run(RunOptions(request: request, out: URL(fileURLWithPath: "/tmp/out")),
                              explain: ExplainCommand())
    let worker = try Corpus.load(request, eagerTables: false, known: WorkerSetup(run: run, corpus: parent).knownZones)
    #expect(worker.utcZone == "Africa/Abidjan")
  }

  @Test("a worker is told its run in its setup line, every option as the parent has it; its command line is the mode alone")
  func runInSetupLine() throws {
    // Every option a worker evaluates by, none at its default.
    var request = CorpusRequest(corporaDirectory: URL(fileURLWithPath: "Corpora"))
    request.locales = .list(["en_US", "en-US-u-fw-mon"])
    request.calendars = .file("my calendars.txt")
    request.firstWeekdays = [.own, .fixed(7)]
    request.zones = .all
    request.years = 1987...2012
    request.transitionSample = .shapes
    request.exhaustive = true
    request.oracleMode = .direct
    request.monthSweep = .perOffset
    var options = RunOptions(request: request, out: URL(fileURLWithPath: "/tmp/out"))
    options.checks = ["leading-blanks", "date-text"]
    options.record = .all
    options.waivers = URL(fileURLWithPath: "/tmp/w.json")
    options.baseline = URL(fileURLWithPath: "night-1")
    options.subjectCommand = "python3 x.py"
    options.subjectLog = URL(fileURLWithPath: "/tmp/log.jsonl")
    let explain = ExplainCommand(subject: "python3 x.py", waivers: "/tmp/w.json", fault: "trap:*")
    let run = WorkerSetup.Run(options, explain: explain)
    let line = RecordCoding.line(run, encoder: RecordCoding.lineEncoder())
    let read = try RecordCoding.decoder().decode(WorkerSetup.Run.self, from: line)
    #expect(read == run)
    #expect(read.request == request && read.checks == options.checks && read.recordAll)
    // Paths as given, relative ones too (the worker has its parent's working directory).
    #expect(read.request.corporaDirectory.relativePath == "Corpora")
    #expect(read.baseline?.url.relativePath == "night-1" && read.waivers?.url.path == "/tmp/w.json")
    #expect(read.explain == explain)
    // Run options after the mode are refused: a worker's run is its setup line.
    let refused = try Executable.run(["__worker", "--locales", "en_US"])
    #expect(refused.status == 2)
    #expect(refused.error.contains("__worker takes no arguments"), "\(refused.error)")
  }

  @Test("conformance's worker refuses a run of a team's own functions: only their executable has them")
  func ownSubjectNeedsItsWorker() throws {
    var request = CorpusRequest(corporaDirectory: corpora)
    (request.locales, request.calendars, request.zones) = (.list(["en_US"]), .list(["gregorian"]), .list(["UTC"]))
    let corpus = try Corpus.load(request)
    var options = RunOptions(request: request, out: URL(fileURLWithPath: "/tmp/out"))
    options.checks = ["weekday-symbols"]
    var run = WorkerSetup.Run(options, explain: ExplainCommand())
    run.subject = "MyPicker"
    let line = RecordCoding.line(WorkerSetup(run: run, corpus: corpus), encoder: RecordCoding.lineEncoder())
    let process = Process()
    process.executableURL = Executable.url
    process.arguments = ["__worker"]
    let (input, out, error) = Spawn.serially { (Pipe(), Pipe(), Pipe()) }
    (process.standardInput, process.standardOutput, process.standardError) = (input, out, error)
    try Spawn.serially { try process.run() }
    input.fileHandleForWriting.write(line + Data("\n".utf8))
    try input.fileHandleForWriting.close()
    let said = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    _ = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 3)
    #expect(said.contains("the run sweeps MyPicker, a subject of its own: its workers are the executable that serves it"), "\(said)")
  }
}
