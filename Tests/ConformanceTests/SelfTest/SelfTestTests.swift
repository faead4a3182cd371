import Conformance
import Foundation
import Testing

@Suite("Self-test", .endToEndLane, .tags(.endToEnd), .timeLimit(.minutes(10)))
struct SelfTestTests {
  /// The package's corpora cut to a core of two locales, one calendar and one zone, with no
  /// waiver: zh_CN's first weekday is Monday in CLDR 42 (libicu 72) and Sunday in CLDR 46
  /// (Foundation's ICU 76), `Corpora/locales-core.txt`, so the real subject shows unwaived
  /// differences and its row has something to get wrong.
  static let corporaWithoutWaivers: URL = {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-self-test-corpora-\(getpid())")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.copyItem(at: corpora, to: directory)
    let files = [
      "locales-core.txt": "en_US | Sunday first\nzh_CN | Monday first in CLDR 42, Sunday in 46\n",
      "calendars.txt": "gregorian | pure Swift\n",
      "zones-core.txt": "America/Sao_Paulo | midnight skipped until 2019\n",
      Corpus.Files.waivers: #"{"schema": "conformance-waivers/1", "waivers": []}"#,
    ]
    for (name, text) in files {
      try? Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }
    return directory
  }()

  func temporary(_ name: String) -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("conformance-self-test-\(getpid())-\(name)-\(UUID().uuidString)")
  }

  /// A run as a user makes it, on the cut corpora.
  func finishedRun(_ name: String, _ arguments: [String] = [],
                   environment: [String: String] = [:]) throws -> URL {
    let out = temporary(name)
    let run = try Executable.run(["--corpora", Self.corporaWithoutWaivers.path, "--out", out.path]
      + arguments, environment: environment)
    try #require(run.status == 0 || run.status == 1, "\(run.status): \(run.error)")
    return out
  }

  @Test("the real subject's row read from a finished run is the row its own sweep gives, and so are the mutants' against it")
  func realRunReadsAsSwept() throws {
    let run = try finishedRun("core")
    defer { try? FileManager.default.removeItem(at: run) }
    // Mutants of the two functions zh_CN's first weekday fails in: their rows count only
    // what is new against the real subject's failures, so a baseline misread changes them.
    let selfTest = ["self-test", "--corpora", Self.corporaWithoutWaivers.path,
                    "--mutants", "blanks-ignore-first-weekday,symbols-not-rotated"]
    let swept = try Executable.run(selfTest)
    let read = try Executable.run(selfTest + ["--real-run", run.path])
    #expect(read.out == swept.out)
    #expect(read.status == swept.status)
    #expect(read.error.contains(", read from \(run.path))"), "\(read.error)")
    // Not equal by saying nothing: the real subject is caught (no waiver explains zh_CN) by
    // the check of the weekday that heads the first column.
    let real = try #require(swept.out.split(separator: "\n").first { $0.hasPrefix("PickerLogic |") })
    #expect(real.contains("weekday-symbols ("), "\(real)")
    #expect(swept.status == 1)
  }

  @Test("a run that is not the one self-test makes is refused, saying how it differs (exit 2)",
        arguments: [
          (["--locales", "en_US"], [:], "not the core corpus's plan"),
          (["--waivers", "none"], [:], "its waivers are none, not the corpus's own"),
          ([], ["CONFORMANCE_FAULT": "trap:*leading-blanks*"], "it ran with CONFORMANCE_FAULT=trap:*leading-blanks*"),
        ] as [([String], [String: String], String)])
  func otherRunsRefused(arguments: [String], environment: [String: String], message: String) throws {
    let run = try finishedRun("other", arguments, environment: environment)
    defer { try? FileManager.default.removeItem(at: run) }
    let selfTest = try Executable.run(["self-test", "--corpora", Self.corporaWithoutWaivers.path,
                                       "--mutants", "symbols-not-rotated", "--real-run", run.path])
    #expect(selfTest.status == 2)
    #expect(selfTest.error.contains("self-test --real-run \(run.path)/results.json: not "), "\(selfTest.error)")
    #expect(selfTest.error.contains(message), "\(selfTest.error)")
  }
}
