// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// vmaf-exact's C++ API, all of it: sessions (scoring picture pairs), inputs
// (clips and the reading threads), reports and pooling, the HTML report, versions, errors.
#include "vmaf_exact/collector.hpp"
#include "vmaf_exact/error.hpp"
#include "vmaf_exact/html.hpp"
#include "vmaf_exact/input.hpp"
#include "vmaf_exact/picture.hpp"
#include "vmaf_exact/report.hpp"
#include "vmaf_exact/session.hpp"
#include "vmaf_exact/version.hpp"
