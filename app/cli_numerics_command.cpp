// numerics: where two runs of a program part ways (engine/numerics).
#include <fstream>
#include <iostream>

#include "app/cli_command.h"
#include "engine/numerics/node_data_json.h"
#include "engine/numerics/numerics_run.h"
#include "engine/runtime/program_runner.h"

namespace exportlens::app {
namespace {

std::string device_text(const std::string& device, runtime::Precision p) {
  return runtime::precision_name(p) + " on " + device;
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw Error(ErrorKind::Input, {.file = path}, "cannot write");
}

int cmd_numerics(const ParsedArgs& a) {
  int ways = 0;
  for (const char* o : {"--vs", "--reference"}) ways += a.option(o) ? 1 : 0;
  ways += a.option("--ir") ? 1 : 0;
  if (ways > 1) throw UsageError("give one of --vs, --reference, --ir (with --dtype / --device if you like)");
  if (!ways && !a.option("--dtype") && !a.option("--device"))
    throw UsageError("nothing to compare: give --vs FILE2.pt2, --dtype bf16|fp16|fp64, --device cuda, --ir core or --reference REF.pt");
  if (a.option("--inputs") && a.flag("--random")) throw UsageError("give --inputs or --random, not both");
  const std::string metric = a.option("--metric").value_or("max_abs");
  if (std::find(numerics::metric_names().begin(), numerics::metric_names().end(), metric) == numerics::metric_names().end())
    throw UsageError("--metric takes max_abs, max_rel, mse, snr_db or cosine");
  size_t top = 10;
  if (const auto t = a.option("--top")) {
    try {
      top = std::stoul(*t);
    } catch (const std::exception&) {
      throw UsageError("--top expects a count, got '" + *t + "'");
    }
  }
  runtime::Precision precision = runtime::Precision::AsExported;
  if (const auto d = a.option("--dtype")) {
    const auto p = runtime::parse_precision(*d);
    if (!p) throw UsageError("--dtype takes bf16, fp16, fp64 or fp32, got '" + *d + "'");
    precision = *p;
  }
  const std::string b_device = a.option("--device").value_or("cpu");
  std::string why;
  if (!runtime::device_available(b_device, &why)) throw Error(ErrorKind::Run, {}, "cannot run on " + b_device + ": " + why);

  auto program = std::make_shared<const ir::ExportedProgram>(load_program_argument(a, "numerics", Weights::Load));
  numerics::NumericsRequest r;
  r.a = {program, "cpu", runtime::Precision::AsExported, device_text("cpu", runtime::Precision::AsExported)};
  r.b = {program, b_device, precision, device_text(b_device, precision)};
  if (a.option("--ir")) {
    auto lowered = std::make_shared<const ir::ExportedProgram>(lowered_as_asked(a, *program));
    r.b.program = lowered;
    r.b.label = "lowered to --ir " + *a.option("--ir") + ", " + r.b.label;
    r.pairing = numerics::by_provenance(*program, *lowered);
  } else if (const auto other = a.option("--vs")) {
    ParsedArgs b_args = a;
    b_args.positionals = {*other};
    auto b = std::make_shared<const ir::ExportedProgram>(load_program_argument(b_args, "numerics", Weights::Load));
    r.b.program = b;
    r.b.label = *other + ", " + r.b.label;
    r.pairing = numerics::by_matching(*program, *b);
  } else if (const auto ref = a.option("--reference")) {
    r.reference = *ref;
    r.a.label = "reference values " + *ref;
    r.pairing = numerics::by_name(*program, numerics::reference_names(*ref));
  } else {
    r.pairing = numerics::same_graph(*program);
  }
  if (const auto in = a.option("--inputs")) r.inputs_file = *in;
  if (const auto seed = a.option("--seed")) r.seed = std::stoull(*seed);
  for (const auto& k : a.values("--keep")) r.keep.insert(k);
  r.limits = limits_option(a);
  for (const auto& op : a.values("--allow-op")) r.allowed_ops.insert(op);

  const numerics::NumericsResult result = numerics::run_numerics(r);
  if (const auto out = a.option("--json")) write_text(*out, numerics::numerics_json(result.report));
  if (const auto out = a.option("--node-data")) {
    write_text(*out, numerics::write_node_data(numerics::node_data_of(result.report, metric)));
  }
  std::cout << numerics::format_numerics(result.report, metric, top);
  return result.report.all_outputs_close && !result.report.first_nonfinite_b ? 0 : 1;
}

}  // namespace

std::vector<Command> numerics_commands() {
  return {{"numerics", "where two runs of a program part ways: per-node error, the node that introduced it, NaN origin",
           "usage: exportlens numerics FILE.pt2 [--vs FILE2.pt2 | --ir functional|core [--table NAME] | --reference REF.pt]\n"
           "                           [--dtype bf16|fp16|fp64] [--device cuda[:N]] [--inputs IN.pt | --random [--seed N]]\n"
           "                           [--metric max_abs|max_rel|mse|snr_db|cosine] [--top N] [--json OUT.json]\n"
           "                           [--node-data OUT.json] [--keep NODE]...\n\n"
           "Runs the program two ways in lockstep and compares every value as it is made:\n"
           "A, the program as exported on the CPU, against B:\n"
           "  --dtype bf16|fp16|fp64   the same program with its floating weights and inputs cast\n"
           "  --device cuda            the same program on a GPU (with --dtype too, if you like)\n"
           "  --ir functional|core     the program lowered (each node against the end of its decomposition)\n"
           "  --vs FILE2.pt2           another program (a pt2e-quantized one against its float one),\n"
           "                           nodes paired as `exportlens diff` matches them (names do not matter)\n"
           "  --reference REF.pt       values recorded outside, a torch.save'd {node name: tensor}\n"
           "                           (exportlens_reference.record writes one), as A; B is this program\n"
           "Per node: max abs / max rel error, MSE, SNR (dB), cosine similarity, NaN/Inf counts;\n"
           "the error it introduces (its B computation fed A's inputs) beside what it inherits;\n"
           "the first divergent node and the first node turning finite inputs into NaN/Inf.\n"
           "Prints the outputs' verdicts, those nodes and the --top worst nodes by introduced\n"
           "--metric; --json writes every node's figures, --node-data the introduced errors in\n"
           "Model Explorer's node-data format. Exit 0 when the outputs agree within torch.testing's\n"
           "tolerances (of the looser dtype) and B makes no NaN/Inf from finite inputs, 1 otherwise.\n" +
               file_help(),
           {"--vs", "--ir", "--table", "--load", "--reference", "--dtype", "--device", "--inputs", "--seed",
            "--metric", "--top", "--json", "--node-data", "--keep", "--limit", "--program", "--allow-op"},
           {"--random"},
           cmd_numerics}};
}

}  // namespace exportlens::app
