// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The HTML page of write_report(kHtml): one rendition, no thumbnails.
#include <string>

#include "vmaf_exact/collector.hpp"
#include "vmaf_exact/html.hpp"
#include "vmaf_exact/report.hpp"

namespace vmafx {

std::string html_page(const FeatureCollector& fc, const ReportInfo& info);

}  // namespace vmafx
