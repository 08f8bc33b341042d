#include "common/model/warp_picture.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace smem {

namespace {

const char* const kRed = "\x1b[1;31m";
const char* const kCyan = "\x1b[36m";
const char* const kReset = "\x1b[0m";

std::string plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string cell(const WordUse& use) {
  char text[8];
  std::snprintf(text, sizeof text, "%2d%c", use.lanes.front(), use.lanes.size() > 1 ? '*' : ' ');
  return text;
}

}  // namespace

bool stdout_wants_colour() {
  return isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr;
}

std::string summarize(const WarpRequest& request, const Analysis& analysis) {
  int active = 0;
  for (int t = 0; t < kWarpSize; ++t) active += request.active(t) ? 1 : 0;
  std::ostringstream out;
  out << request.describe() << ", " << plural(active, "active lane") << ": "
      << plural(analysis.active_groups, "group") << ", " << plural(analysis.wavefronts, "wavefront")
      << " (ideal " << analysis.ideal << ", excess " << analysis.excess << "), " << analysis.ways
      << "-way";
  return out.str();
}

std::string draw_request(const WarpRequest& request, const PictureStyle& style) {
  const Analysis analysis = analyze(request);
  std::ostringstream out;
  out << summarize(request, analysis) << "\n";
  for (const GroupAnalysis& group : analysis.groups) {
    if (group.wavefronts == 0) continue;  // no active lane: nothing to draw
    if (analysis.groups.size() > 1) {
      out << "group of lanes " << group.first_lane << "-" << group.first_lane + group.lane_count - 1
          << ": " << plural(group.wavefronts, "wavefront") << "\n";
    }
    out << " bank";
    for (int b = 0; b < kNumBanks; ++b) {
      char text[8];
      std::snprintf(text, sizeof text, "%2d ", b);
      out << text;
    }
    out << "\n";
    const int rows = group.wavefronts < style.max_rows ? group.wavefronts : style.max_rows;
    for (int row = 0; row < rows; ++row) {
      char label[16];
      std::snprintf(label, sizeof label, " w%-3d", row + 1);
      out << label;
      for (int b = 0; b < kNumBanks; ++b) {
        const auto& served = group.banks[b];
        if (row >= static_cast<int>(served.size())) {
          out << " . ";
          continue;
        }
        const bool worst =
            group.wavefronts > 1 && static_cast<int>(served.size()) == group.wavefronts;
        const bool shared = served[row].lanes.size() > 1;
        const std::string text = cell(served[row]);
        if (style.colour && (worst || shared)) {
          // The codes go around the lane and its mark, not the blank after them: a coloured
          // picture is the plain one with codes added, with no blank left at a line's end.
          const std::size_t shown = text.find_last_not_of(' ') + 1;
          out << (worst ? kRed : kCyan) << text.substr(0, shown) << kReset << text.substr(shown);
        } else {
          out << text;
        }
      }
      out << "\n";
    }
    if (group.wavefronts > style.max_rows) {
      out << "      ... " << group.wavefronts - style.max_rows << " more word rows not drawn\n";
    }
    if (group.wavefronts > 1) {
      out << "     ";
      for (int b = 0; b < kNumBanks; ++b) {
        const bool worst = static_cast<int>(group.banks[b].size()) == group.wavefronts;
        out << (worst ? " ^ " : "   ");
      }
      out << "\n";
    }
  }
  out << " (row wK = K-th distinct word a bank serves; each row past w1 costs a wavefront;"
         " N* = lane N and others share that word)\n";
  // No trailing blanks: pictures are pasted into lessons and compared in tests.
  std::string text = out.str(), trimmed;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    std::string line = text.substr(start, end - start);
    line.erase(line.find_last_not_of(' ') + 1);
    trimmed += line + "\n";
    start = end + 1;
  }
  return trimmed;
}

}  // namespace smem
