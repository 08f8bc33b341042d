// The bank model in the browser: analyze_smem_access's arguments in; what it prints out.
//
// Compiled to WebAssembly by emscripten (tools/meson.build) with the same common/model sources
// as the analyser, for the page bank_model.html. The page calls
//
//   int bank_model_analyse(int argc, const char* const* argv)
//
// with the argument vector the analyser would get (without the program's name), and reads what
// the analyser would have printed for it:
//
//   bank_model_json()     what `--json` prints;
//   bank_model_picture()  what it prints without `--json`, with its colour codes (the page shows
//                         them as colours, and the text as the terminal shows it);
//   bank_model_svg()      what `--svg -` prints;
//   bank_model_error()    what it prints for bad input, on standard error, before the usage text
//                         that follows a wrong argument in the terminal.
//
// bank_model_analyse returns the analyser's exit status: 0, or 2 for bad input (then only
// bank_model_error() is not empty). The options that name files (--batch, --svg FILE) are the
// terminal's: the page has no files, and refuses them as bad input.
#include <emscripten/emscripten.h>

#include <exception>
#include <string>
#include <vector>

#include "common/model/access_arguments.hpp"
#include "common/model/access_report.hpp"
#include "common/model/bank_model.hpp"
#include "common/model/lane_expression.hpp"
#include "common/model/svg_picture.hpp"

namespace {

// What the last call printed; the page reads each one before the next call.
struct Printed {
  std::string json, picture, svg, error;
};
Printed printed;

void analyse(const std::vector<std::string>& arguments) {
  const smem::AccessArguments args = smem::parse_access_arguments(arguments);
  const char* terminal_only = args.help                  ? "--help"
                              : !args.batch_path.empty() ? "--batch"
                              : !args.svg_path.empty()   ? "--svg"
                                                         : nullptr;
  if (terminal_only != nullptr) {
    throw smem::ArgumentError(std::string(terminal_only) +
                              " is the terminal analyser's option: the page reads and writes no "
                              "file, and shows the JSON and both pictures of every request");
  }
  const std::string title = args.expression.empty() ? "" : "address = " + args.expression;
  printed.json = smem::json_report(args.request);
  printed.picture = smem::text_report(args.request, true);
  printed.svg = smem::draw_request_svg(args.request, title);
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int bank_model_analyse(int argc, const char* const* argv) {
  printed = Printed{};
  try {
    analyse(std::vector<std::string>(argv, argv + argc));
    return 0;
  } catch (const smem::ExpressionError& e) {
    printed = Printed{"", "", "", smem::error_report(e)};
  } catch (const smem::InvalidRequest& e) {
    printed = Printed{"", "", "", smem::error_report(e)};
  } catch (const smem::ArgumentError& e) {
    printed = Printed{"", "", "", smem::error_report(e)};
  }
  return 2;
}

EMSCRIPTEN_KEEPALIVE const char* bank_model_json() {
  return printed.json.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* bank_model_picture() {
  return printed.picture.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* bank_model_svg() {
  return printed.svg.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* bank_model_error() {
  return printed.error.c_str();
}

}  // extern "C"
