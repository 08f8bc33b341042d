#include "common/model/access_report.hpp"

#include <sstream>

#include "common/model/lane_expression.hpp"
#include "common/model/warp_picture.hpp"

namespace smem {

std::string json_report(const WarpRequest& r) {
  const Analysis a = analyze(r);
  std::ostringstream out;
  out << "{\n  \"width\": " << r.width_bytes << ",\n  \"op\": \"" << op_text(r)
      << "\",\n  \"addresses\": [";
  for (int t = 0; t < kWarpSize; ++t) {
    out << (t ? ", " : "") << (r.active(t) ? r.address[t] : -1);
  }
  out << "],\n  \"merged_pairs\": " << (pairs_merge(r) ? "true" : "false")
      << ",\n  \"groups\": " << a.active_groups << ",\n  \"wavefronts\": " << a.wavefronts
      << ",\n  \"ideal\": " << a.ideal << ",\n  \"conflicts\": " << a.excess
      << ",\n  \"ways\": " << a.ways << ",\n  \"group_detail\": [";
  bool first_group = true;
  for (const GroupAnalysis& g : a.groups) {
    if (g.wavefronts == 0) continue;
    out << (first_group ? "" : ",") << "\n    {\"first_lane\": " << g.first_lane
        << ", \"lane_count\": " << g.lane_count << ", \"wavefronts\": " << g.wavefronts
        << ", \"banks\": [";
    first_group = false;
    for (int b = 0; b < kNumBanks; ++b) {
      out << (b ? ", " : "") << "[";
      for (std::size_t k = 0; k < g.banks[b].size(); ++k) {
        out << (k ? ", " : "") << "{\"word\": " << g.banks[b][k].word << ", \"lanes\": [";
        for (std::size_t i = 0; i < g.banks[b][k].lanes.size(); ++i) {
          out << (i ? ", " : "") << g.banks[b][k].lanes[i];
        }
        out << "]}";
      }
      out << "]";
    }
    out << "]}";
  }
  out << "\n  ]\n}\n";
  return out.str();
}

std::string text_report(const WarpRequest& request, bool colour) {
  const Analysis a = analyze(request);
  std::ostringstream out;
  out << "groups " << a.active_groups << ", wavefronts " << a.wavefronts << ", ideal " << a.ideal
      << ", conflicts " << a.excess << " (as Nsight Compute counts them), ways " << a.ways << "\n";
  PictureStyle style;
  style.colour = colour;
  style.max_rows = 32;
  out << draw_request(request, style);
  return out.str();
}

std::string error_report(const std::exception& error) {
  std::string text = std::string("error: ") + error.what() + "\n";
  if (const auto* expression = dynamic_cast<const ExpressionError*>(&error)) {
    text += expression->pointer() + "\n";
  }
  return text;
}

}  // namespace smem
