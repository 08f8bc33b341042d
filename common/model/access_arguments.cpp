#include "common/model/access_arguments.hpp"

#include <algorithm>
#include <limits>
#include <sstream>

#include "common/model/lane_expression.hpp"

namespace smem {

namespace {

/// The largest byte address a request may name: shared memory is a 32-bit window, and a bound
/// keeps `address + width` from overflowing.
constexpr std::int64_t kMaxAddress = 0xffffffffLL;

/// Reads `text` as a whole number: decimal, or hex after 0x, with an optional sign, nothing
/// else (no blanks, no trailing text; a leading 0 is not octal). False when it is not one;
/// `overflow` set when it is one but does not fit 64 bits.
bool read_whole(const std::string& text, std::int64_t& value, bool& overflow) {
  overflow = false;
  const std::size_t start = text.size() > 0 && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  const bool hex = text.compare(start, 2, "0x") == 0 || text.compare(start, 2, "0X") == 0;
  const std::size_t digits = start + (hex ? 2 : 0);
  if (digits >= text.size() || text.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789",
                                                      digits) != std::string::npos) {
    return false;
  }
  try {
    std::size_t used = 0;
    const std::string number = text.substr(0, start) + text.substr(digits);
    value = std::stoll(number, &used, hex ? 16 : 10);
    return used == number.size();
  } catch (const std::out_of_range&) {
    overflow = true;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

/// `text` as a whole number within min..max; throws ArgumentError naming `what` otherwise.
std::int64_t parse_integer(const std::string& text, const std::string& what, std::int64_t min,
                           std::int64_t max) {
  std::int64_t value = 0;
  bool overflow = false;
  if (!read_whole(text, value, overflow)) {
    throw ArgumentError(what + ": '" + text + "' is not a whole number");
  }
  if (overflow || value < min || value > max) {
    const std::string range = min == std::numeric_limits<std::int64_t>::min()
                                  ? "at most " + std::to_string(max)
                                  : std::to_string(min) + ".." + std::to_string(max);
    throw ArgumentError(what + ": " + text + " is out of range (" + range + ")");
  }
  return value;
}

// The option nearest `arg`, at most two letters changed, added or removed ("--widht" gives
// "--width"), or "" when none is that near.
std::string nearest_option(const std::string& arg) {
  static const char* const kOptions[] = {
      "--help",      "--width", "--op",    "--store", "--active", "--shared-bytes",
      "--addresses", "--svg",   "--batch", "--json",  "--colour", "--no-colour"};
  std::string nearest;
  std::size_t least = 3;
  for (const std::string option : kOptions) {
    std::vector<std::size_t> row(option.size() + 1);  // edit distances to option's prefixes
    for (std::size_t j = 0; j < row.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= arg.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j < row.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (arg[i - 1] != option[j - 1])});
        diagonal = above;
      }
    }
    if (row.back() < least) {
      least = row.back();
      nearest = option;
    }
  }
  return nearest;
}

}  // namespace

std::vector<std::string> shell_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (const char ch : text) {
    if (quote != 0) {
      if (ch == quote) {
        quote = 0;
      } else {
        word += ch;
      }
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = true;
    } else if (ch == ' ' || ch == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += ch;
      in_word = true;
    }
  }
  if (quote != 0) throw ArgumentError(std::string("a quote (") + quote + ") is not closed");
  if (in_word) words.push_back(word);
  return words;
}

std::uint32_t parse_active_lanes(const std::string& text) {
  if (text.find_first_not_of(" \t") == std::string::npos) {
    throw ArgumentError(
        "--active is empty: give a mask (0x0000ffff) or lanes and ranges (0-15,20)");
  }
  if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) {
    std::int64_t mask = 0;
    bool overflow = false;
    if (!read_whole(text, mask, overflow)) {
      throw ArgumentError("--active: '" + text + "' is not a whole number");
    }
    if (overflow || mask < 0 || mask > 0xffffffffLL) {
      throw ArgumentError("--active: mask " + text + " is wider than 32 lanes");
    }
    return static_cast<std::uint32_t>(mask);
  }
  std::uint32_t mask = 0;
  std::stringstream parts(text);
  for (std::string part; std::getline(parts, part, ',');) {
    const std::size_t dash = part.find('-');
    bool overflow = false, overflow_last = false;
    auto lane = [](const std::string& number, bool& too_big) {
      std::int64_t value = 0;
      if (!read_whole(number, value, too_big)) {
        throw ArgumentError("--active lane: '" + number + "' is not a whole number");
      }
      return value;
    };
    const std::int64_t first = lane(part.substr(0, dash), overflow);
    const std::int64_t last =
        dash == std::string::npos ? first : lane(part.substr(dash + 1), overflow_last);
    if (overflow || overflow_last || first < 0 || last > 31 || first > last) {
      throw ArgumentError("--active: '" + part + "' is not a lane or a range of lanes within 0-31");
    }
    for (std::int64_t t = first; t <= last; ++t) mask |= 1u << t;
  }
  return mask;
}

AccessArguments parse_access_arguments(const std::vector<std::string>& args) {
  AccessArguments a;
  std::string addresses, op = "load";
  bool expression_given = false, width_given = false;
  std::string access_option;  // the first option that describes one access (not --batch's)
  std::uint32_t active = 0xffffffffu;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    static const char* const kAccessOptions[] = {"--width",  "--op",           "--store",
                                                 "--active", "--shared-bytes", "--addresses"};
    if (access_option.empty() && std::find(std::begin(kAccessOptions), std::end(kAccessOptions),
                                           arg) != std::end(kAccessOptions)) {
      access_option = arg;
    }
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw ArgumentError(arg + " needs a value");
      return args[++i];
    };
    if (arg == "-h" || arg == "--help") {
      a.help = true;
      return a;
    } else if (arg == "--width") {
      a.request.width_bytes = static_cast<int>(parse_integer(value(), "--width", 1, 16));
      width_given = true;
    } else if (arg == "--op") {
      op = value();
    } else if (arg == "--store") {
      op = "store";
    } else if (arg == "--active") {
      active = parse_active_lanes(value());
    } else if (arg == "--shared-bytes") {
      a.shared_bytes = parse_integer(value(), "--shared-bytes", 1, kMaxAddress + 1);
    } else if (arg == "--addresses") {
      addresses = value();
    } else if (arg == "--svg") {
      a.svg_path = value();
    } else if (arg == "--batch") {
      a.batch_path = value();
      if (a.batch_path.empty()) throw ArgumentError("--batch: the file name is empty");
    } else if (arg == "--json") {
      a.json = true;
    } else if (arg == "--colour" || arg == "--color") {
      a.colour = true;
    } else if (arg == "--no-colour" || arg == "--no-color") {
      a.colour = false;
    } else if (arg.size() > 2 && arg[0] == '-' && arg[1] == '-') {
      const std::string nearest = nearest_option(arg);
      throw ArgumentError("unknown option " + arg +
                          (nearest.empty() ? "" : " (did you mean " + nearest + "?)"));
    } else if (!expression_given) {
      a.expression = arg;
      expression_given = true;
      if (access_option.empty()) access_option = "an expression ('" + arg + "')";
    } else {
      throw ArgumentError("more than one expression given ('" + a.expression + "' and '" + arg +
                          "'); quote an expression that contains spaces");
    }
  }
  if (!a.batch_path.empty()) {
    if (!access_option.empty()) {
      throw ArgumentError("--batch reads every access from its file; " + access_option +
                          " describes one access: give one or the other");
    }
    return a;
  }
  if (expression_given && a.expression.find_first_not_of(" \t") == std::string::npos) {
    throw ArgumentError("the expression is empty: give lane t's byte address, for example 't*4'");
  }
  if (expression_given == !addresses.empty()) {
    throw ArgumentError(expression_given
                            ? "give either an expression of t or --addresses, not both"
                            : "give lane t's byte address as an expression of t (for example "
                              "'t*4'), or 32 addresses with --addresses");
  }
  WarpRequest& request = a.request;
  if ((op == "ldmatrix.x1" || op == "ldmatrix.x2" || op == "ldmatrix.x4" ||
       op.rfind("cp.async", 0) == 0) &&
      !width_given) {
    request.width_bytes = 16;  // given otherwise, the request is refused below, saying why
  }
  parse_op(op, request);
  if (!a.expression.empty()) {
    const LaneExpression e = LaneExpression::parse(a.expression);
    for (int t = 0; t < kWarpSize; ++t) {
      if (!(active >> t & 1u)) continue;  // a lane switched off is not evaluated
      request.address[t] = e.evaluate(t);
      if (request.address[t] > kMaxAddress) {
        throw ArgumentError("lane " + std::to_string(t) + ": the expression gives " +
                            std::to_string(request.address[t]) + ", beyond the largest address " +
                            std::to_string(kMaxAddress));
      }
      if (request.address[t] < 0) {
        throw ArgumentError("lane " + std::to_string(t) + ": the expression gives " +
                            std::to_string(request.address[t]) +
                            ", a negative address (switch lanes off with --active, not with a "
                            "negative address)");
      }
    }
  } else {
    std::istringstream in(addresses);
    std::vector<std::string> tokens;
    for (std::string token; in >> token;) tokens.push_back(token);
    if (tokens.size() != kWarpSize) {
      throw ArgumentError("--addresses: " + std::to_string(tokens.size()) +
                          " numbers given; a warp needs exactly 32 (use -1 for an inactive lane)");
    }
    for (int t = 0; t < kWarpSize; ++t) {
      request.address[t] = parse_integer(tokens[t], "--addresses, lane " + std::to_string(t),
                                         std::numeric_limits<std::int64_t>::min(), kMaxAddress);
    }
  }
  for (int t = 0; t < kWarpSize; ++t) {
    if (!(active >> t & 1u)) request.address[t] = kInactive;
  }
  validate(request, a.shared_bytes);
  return a;
}

bool same_access(const WarpRequest& a, const WarpRequest& b) {
  if (a.op != b.op || a.width_bytes != b.width_bytes ||
      (a.op == Op::kLdmatrix && a.matrices != b.matrices) ||
      (a.op == Op::kAsyncCopy && a.global_row_bytes != b.global_row_bytes)) {
    return false;
  }
  for (int t = 0; t < kWarpSize; ++t) {
    if (a.active(t) != b.active(t) || (a.active(t) && a.address[t] != b.address[t])) return false;
  }
  return true;
}

}  // namespace smem
