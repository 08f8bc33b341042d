#include "common/model/svg_picture.hpp"

#include <sstream>

#include "common/model/warp_picture.hpp"

namespace smem {

namespace {

constexpr int kCellWidth = 26;
constexpr int kCellHeight = 20;
constexpr int kLeft = 44;  // room for the row labels
constexpr int kLineHeight = 18;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string draw_request_svg(const WarpRequest& request, const std::string& title) {
  const Analysis analysis = analyze(request);
  std::ostringstream body;
  int y = 8;
  if (!title.empty()) {
    y += kLineHeight;
    body << "<text x=\"4\" y=\"" << y << "\" class=\"title\">" << escape(title) << "</text>\n";
  }
  y += kLineHeight;
  body << "<text x=\"4\" y=\"" << y << "\">" << escape(summarize(request, analysis)) << "</text>\n";
  for (const GroupAnalysis& group : analysis.groups) {
    if (group.wavefronts == 0) continue;
    if (analysis.groups.size() > 1) {
      y += kLineHeight + 4;
      body << "<text x=\"4\" y=\"" << y << "\">lanes " << group.first_lane << "-"
           << group.first_lane + group.lane_count - 1 << ": " << group.wavefronts
           << (group.wavefronts == 1 ? " wavefront" : " wavefronts") << "</text>\n";
    }
    y += 8;
    body << "<text x=\"4\" y=\"" << y + 14 << "\" class=\"label\">bank</text>\n";
    for (int b = 0; b < kNumBanks; ++b) {
      body << "<text x=\"" << kLeft + b * kCellWidth + kCellWidth / 2 << "\" y=\"" << y + 14
           << "\" class=\"bank\">" << b << "</text>\n";
    }
    y += kCellHeight;
    for (int row = 0; row < group.wavefronts; ++row) {
      body << "<text x=\"4\" y=\"" << y + 14 << "\" class=\"label\">w" << row + 1 << "</text>\n";
      for (int b = 0; b < kNumBanks; ++b) {
        const auto& served = group.banks[b];
        const int x = kLeft + b * kCellWidth;
        if (row >= static_cast<int>(served.size())) {
          body << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCellWidth
               << "\" height=\"" << kCellHeight << "\" class=\"empty\"/>\n";
          continue;
        }
        const WordUse& use = served[row];
        const bool worst =
            group.wavefronts > 1 && static_cast<int>(served.size()) == group.wavefronts;
        const bool shared = use.lanes.size() > 1;
        body << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCellWidth << "\" height=\""
             << kCellHeight << "\" class=\""
             << (worst    ? "worst"
                 : shared ? "shared"
                          : "used")
             << "\"><title>bank " << b << ", word " << use.word << ", lanes";
        for (int lane : use.lanes) body << " " << lane;
        body << "</title></rect>\n<text x=\"" << x + kCellWidth / 2 << "\" y=\"" << y + 14
             << "\" class=\"lane\">" << use.lanes.front() << (shared ? "*" : "") << "</text>\n";
      }
      y += kCellHeight;
    }
  }
  y += kLineHeight;
  body << "<text x=\"4\" y=\"" << y
       << "\" class=\"label\">rows w1, w2, ...: distinct words a bank serves; each row past w1 "
          "costs a wavefront.</text>\n";
  y += kLineHeight;
  body << "<text x=\"4\" y=\"" << y
       << "\" class=\"label\">numbers: lanes; N*: lane N and others share the word (blue); red: "
          "the busiest banks.</text>\n";
  y += 8;
  const int width = kLeft + kNumBanks * kCellWidth + 8;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y
      << "\" viewBox=\"0 0 " << width << " " << y << "\" font-family=\"monospace\" "
      << "font-size=\"12\">\n<style>\n"
      << "  .title { font-weight: bold; font-size: 14px; }\n"
      << "  .label { fill: #555; font-size: 11px; }\n"
      << "  .bank { fill: #555; text-anchor: middle; font-size: 11px; }\n"
      << "  .lane { text-anchor: middle; }\n"
      << "  rect { stroke: #999; stroke-width: 1; }\n"
      << "  .empty { fill: #f4f4f4; } .used { fill: #d9ead3; }\n"
      << "  .shared { fill: #c9daf8; } .worst { fill: #f4a6a6; }\n"
      << "</style>\n<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << y
      << "\" fill=\"white\" stroke=\"none\"/>\n"
      << body.str() << "</svg>\n";
  return svg.str();
}

}  // namespace smem
