#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the seed corpora of the libFuzzer targets (tests/fuzz/corpus/<target>/).

Run from anywhere; the files are small and committed. Inputs that fuzzing
found (crashes, sanitizer reports, now fixed) are added to the corpora by hand
as regression seeds, named found-<what>; this script leaves those alone.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def planes(w, h, chroma):
    if chroma == "mono":
        return [(w, h)]
    cw = w if chroma == "444" else (w + 1) // 2
    ch = h if chroma != "420" else (h + 1) // 2
    return [(w, h), (cw, ch), (cw, ch)]


def frame(w, h, chroma, bpc, seed=0):
    out = bytearray()
    for p, (pw, ph) in enumerate(planes(w, h, chroma)):
        for y in range(ph):
            for x in range(pw):
                v = (x * 37 + y * 11 + p * 50 + seed * 3) % (1 << bpc)
                out += struct.pack("<H", v) if bpc > 8 else bytes([v])
    return bytes(out)


def y4m(w, h, tag, bpc, frames=1, chroma=None, extra=" F25:1 Ip A1:1", marker="FRAME\n"):
    chroma = chroma or ("mono" if tag.startswith("mono") else tag[:3])
    data = f"YUV4MPEG2 W{w} H{h}{extra} C{tag}\n".encode()
    for i in range(frames):
        data += marker.encode() + frame(w, h, chroma, bpc, i)
    return data


# ---- fuzz_y4m: whole .y4m files -------------------------------------------
T = "fuzz_y4m"
put(T, "420jpeg_8x8_2f", y4m(8, 8, "420jpeg", 8, 2))
put(T, "420_odd_7x5", y4m(7, 5, "420", 8, 1))
put(T, "422_6x4", y4m(6, 4, "422", 8, 1))
put(T, "444_3x3_2f", y4m(3, 3, "444", 8, 2))
put(T, "mono_5x2", y4m(5, 2, "mono", 8, 1))
put(T, "420p10_4x4", y4m(4, 4, "420p10", 10, 2))
put(T, "422p12_5x3", y4m(5, 3, "422p12", 12, 1))
put(T, "444p16_2x2", y4m(2, 2, "444p16", 16, 1))
put(T, "mono16_3x1", y4m(3, 1, "mono16", 16, 1))
put(T, "default_colour_4x2", b"YUV4MPEG2 W4 H2\nFRAME\n" + frame(4, 2, "420", 8))
put(T, "frame_params", y4m(4, 2, "420mpeg2", 8, 2, marker="FRAME Ip XFOO=1\n"))
put(T, "comments", y4m(4, 4, "420paldv", 8, 1, extra=" XYSCSS=420JPEG F30000:1001 It A0:0"))
put(T, "p10_out_of_range", b"YUV4MPEG2 W2 H2 C420p10\nFRAME\n" + b"\xff" * 12)
put(T, "truncated_frame", y4m(8, 8, "420", 8, 2)[:-7])
put(T, "truncated_header", b"YUV4MPEG2 W16 H16 C4")
put(T, "no_frames", b"YUV4MPEG2 W16 H16 C420\n")
put(T, "bad_marker", b"YUV4MPEG2 W2 H2 C420\nFRAMX\n" + bytes(6))
put(T, "short_marker", b"YUV4MPEG2 W2 H2 C420\nFRA")
put(T, "c411", b"YUV4MPEG2 W16 H16 C411\nFRAME\n")
put(T, "huge", b"YUV4MPEG2 W8192 H8192 C444p16\nFRAME\n")
put(T, "bad_signature", b"YUV4MPEG W2 H2\n")

# ---- fuzz_yuv: 6 bytes of -w -h -p -b, then the file ------------------------
T = "fuzz_yuv"
CHROMA = {"420": 0, "422": 1, "444": 2, "mono": 3}


def raw(w, h, chroma, bpc, body):
    return struct.pack("<hhBb", w, h, CHROMA[chroma], bpc) + body


put(T, "420_4x4_2f", raw(4, 4, "420", 8, frame(4, 4, "420", 8) + frame(4, 4, "420", 8, 1)))
put(T, "422p10_5x3", raw(5, 3, "422", 10, frame(5, 3, "422", 10)))
put(T, "444p16_2x2_3f", raw(2, 2, "444", 16, frame(2, 2, "444", 16) * 3))
put(T, "422p12_3x3", raw(3, 3, "422", 12, frame(3, 3, "422", 12, 2)))
put(T, "partial_frame", raw(4, 4, "420", 8, frame(4, 4, "420", 8)[:-1]))
put(T, "p9_out_of_range", raw(2, 2, "420", 9, b"\xff\x01" * 6))
put(T, "zero_width", raw(0, 4, "420", 8, bytes(24)))
put(T, "negative_height", raw(4, -4, "420", 8, bytes(24)))
put(T, "bpc_7", raw(4, 4, "420", 7, bytes(24)))
put(T, "bpc_17", raw(2, 2, "444", 17, bytes(24)))
put(T, "too_large", raw(20000, 20000, "420", 8, bytes(16)))
put(T, "y4m_inside", raw(4, 4, "420", 8, y4m(2, 2, "420", 8, 1)))
put(T, "starts_yuv4", raw(2, 2, "444", 8, b"YUV4xxxxxxxx"))

# ---- fuzz_model: model files -------------------------------------------------
T = "fuzz_model"
SVM_LINEAR = ("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho -1.5\nSV\n"
              "0.5 1:0.25 2:1\n-0.25 2:0.5\n")
SVM_RBF = ("svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 3\nrho -1.2\nSV\n"
           "1 1:0.1 2:0.2\n-1 1:0.3 3:0.4\n0.5 2:0.9 3:0.1\n")
SVM_POLY = ("svm_type epsilon_svr\nkernel_type polynomial\ndegree 3\ngamma 0.5\ncoef0 1\nnr_class 2\n"
            "label 1 -1\nnr_sv 1 1\nprobA 0.1\ntotal_sv 1\nrho 0\nSV\n1 1:1\n")


def js(s):
    import json
    return json.dumps(s)


def model(features, svm, norm="linear_rescale", model_type="LIBSVMNUSVR", extra=""):
    n = len(features)
    slopes = ", ".join(["0.01"] + ["%g" % (1 + i) for i in range(n)])
    inter = ", ".join(["-0.1"] + ["%g" % (-0.5 * i) for i in range(n)])
    return ('{"model_dict": {"model_type": "%s", "norm_type": "%s", "feature_names": [%s], '
            '"slopes": [%s], "intercepts": [%s], "model": %s%s}}'
            % (model_type, norm, ", ".join(js(f) for f in features), slopes, inter, js(svm), extra))


F3 = ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score",
      "VMAF_integer_feature_vif_scale0_score"]
put(T, "linear", model(F3[:2], SVM_LINEAR))
put(T, "rbf_clip", model(F3, SVM_RBF, extra=', "score_clip": [0.0, 100.0]'))
put(T, "poly_none", model(["float_psnr"], SVM_POLY, norm="none"))
put(T, "transform", model(F3, SVM_RBF, extra=(
    ', "score_transform": {"enabled": true, "p0": 1.5, "p1": 0.9, "p2": -0.001, '
    '"knots": [[0.0, 0.0], [20.0, 30.0], [100.0, 100.0]], "out_lte_in": "true", "out_gte_in": false}')))
put(T, "flat_knots", model(F3, SVM_RBF, extra=(
    ', "score_transform": {"enabled": true, "p0": null, "knots": [[0, 5], [50, 5], [60, 70]]}')))
put(T, "feature_opts", model(F3, SVM_RBF, extra=(
    ', "feature_opts_dicts": [{"adm_enhn_gain_limit": 1.0}, {"motion_force_zero": true}, '
    '{"vif_enhn_gain_limit": 1.0, "vif_skip_scale0": "false"}]')))
put(T, "chroma", model(["VMAF_integer_feature_adm3_score", "Speed_chroma_feature_speed_chroma_uv_score"],
                       SVM_LINEAR, extra=', "chroma_correction_parameter": 0.5'))
sub = lambda t: model(F3[:2], SVM_LINEAR, model_type=t, extra=', "score_clip": [0, 100]')
put(T, "bootstrap", '{"0": %s, "1": %s, "2": %s}' % (sub("LIBSVMNUSVR"), sub("BOOTSTRAP_LIBSVMNUSVR"),
                                                     sub("BOOTSTRAP_LIBSVMNUSVR")))
put(T, "residue_bootstrap", '{"0": %s, "1": %s}' % (sub("LIBSVMNUSVR"), sub("RESIDUEBOOTSTRAP_LIBSVMNUSVR")))
put(T, "truncated", model(F3[:2], SVM_LINEAR)[:120])
put(T, "bad_svm", model(F3[:2], SVM_LINEAR.replace("total_sv 2", "total_sv 3")))
put(T, "bad_index", model(F3[:1], SVM_LINEAR))
put(T, "not_object", "[1, 2, 3]")
put(T, "numbers", '{"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none", "feature_names": [], '
                  '"model": "svm_type one_class\\nkernel_type sigmoid\\ngamma 1e308\\ncoef0 -1e308\\n'
                  'nr_class 2\\ntotal_sv 1\\nrho 1e-320\\nSV\\n1e308\\n"}}')

# ---- fuzz_options: --model / --feature lines ---------------------------------
T = "fuzz_options"
put(T, "default_model", "m version=vmaf_v0.6.1\n")
put(T, "two_models", "m version=vmaf_v0.6.1:name=a:disable_clip:enable_transform\n"
                     "m version=vmaf_v0.6.1neg:name=b:enable_transform=false\n")
put(T, "path_model_overload", "m path=a.json:adm.adm_enhn_gain_limit=1.2:vif.vif_enhn_gain_limit=1.0\nf psnr\n")
put(T, "bootstrap_subsample", "m path=b.json\ns 2\np 1\n")
put(T, "v1016", "m version=vmaf_v1.0.16_3d0h\np 2\n")
put(T, "float_features", "n\nf float_vif=vif_kernelscale=0.5\nf float_adm\nf float_motion=motion_force_zero=true\n"
                         "f float_moment\nf float_ansnr\nf float_psnr\n")
put(T, "ssim_family", "n\nf float_ssim=enable_lcs=true:scale=2\nf float_ms_ssim=enable_lcs=true\nf ssim\n"
                      "f psnr=enable_chroma=false:enable_mse=true:enable_apsnr=true\np 3\n")
put(T, "hvs_ciede_cambi", "n\nf psnr_hvs\nf ciede\nf cambi=window_size=9:topk=0.5:tvi_threshold=0.02\np 1\n")
put(T, "speed", "n\nf speed_chroma=speed_prescale=1.5\nf speed_temporal=speed_kernelscale=1.5\np 2\n")
put(T, "integer_options", "n\nf vif=vif_enhn_gain_limit=1.0:vif_skip_scale0=true\n"
                          "f adm=adm_csf_mode=1:adm_enhn_gain_limit=1.05\nf motion=motion_five_frame_window=true\n")
put(T, "option_string", "o a=1:b=true:c=1.0e0:d=0x10:e=-0\n")
put(T, "errors", "m path=bad.json\n")
put(T, "error_dir", "m path=d\n")
put(T, "error_both", "m version=vmaf_v0.6.1:path=a.json\n")
put(T, "error_empty_item", "m version=vmaf_v0.6.1::name=x\n")
put(T, "error_feature", "f psnr=enable_chroma\n")

# ---- fuzz_report: raw bytes (see fuzz_report.cpp for the layout) -------------
T = "fuzz_report"
put(T, "simple", bytes([0, 0, 64, 48]) + struct.pack(">d", 25.0) + bytes([2, 0, 0, 3, 0]) +
    struct.pack(">d", 76.5) + bytes([1]) + struct.pack(">d", 80.25) + bytes([2]) + struct.pack(">d", 1e-9))
put(T, "nan_inf", bytes([1, 18, 1, 1]) + struct.pack(">d", float("nan")) + bytes([3, 1, 2, 5, 0]) +
    struct.pack(">d", float("inf")) + bytes([1]) + struct.pack(">d", float("nan")) + bytes([2, 1, 1]) +
    struct.pack(">d", -0.0) + bytes([2]) + struct.pack(">d", 5e-324) + bytes([2, 3]))
put(T, "sparse_subsample", bytes([3, 17, 9, 9]) + bytes(8) + bytes([4]) +
    b"".join(bytes([i % 6, i % 4, 5]) + b"".join(bytes([j * 7 % 40]) + struct.pack(">d", j * 1.25 + i)
                                                   for j in range(5)) for i in range(4)))

# ---- fuzz_capi: C API call sequences (see fuzz_capi.cpp for the opcodes) -----
T = "fuzz_capi"


def capi(*ops):
    return bytes(b for op in ops for b in op)


def init(threads=0, sub=0, log=0):
    return [0, log, threads, sub, 0, 0]


def pair(fmt, ref_seed, dis_seed):
    # alloc slots 0 and 1 (fmt: None = the context's format), fill, hand over
    a = [0] if fmt is None else [200] + fmt
    return [7, 0] + a + [7, 1] + a + [8, 0, ref_seed, 8, 1, dis_seed, 11, 0, 1, 0, 0]


FLUSH = [11, 240, 240, 0, 0]
F420_64 = [1, 0, 9, 9]          # 4:2:0 8-bit 64x64
F422_10_ODD = [2, 1, 10, 7]     # 4:2:2 10-bit 65x33
F444_12 = [3, 5, 8, 8]          # 4:4:4 12-bit 48x48
F400_16 = [4, 14, 9, 6]         # 4:0:0 16-bit 64x32
put(T, "vmaf_psnr_two_frames", capi(init(), [2, 0, 0, 0, 0], [5, 0, 0], [6, 0, 0], pair(F420_64, 8, 9),
                                    pair(None, 16, 19), FLUSH, [13, 0, 0, 0, 0, 1], [13, 0, 1, 0, 1, 3],
                                    [15, 2], [1]))
put(T, "threads_subsample_odd_422", capi(init(threads=2, sub=2), [2, 1, 2, 2, 1], [5, 1, 0], [6, 2, 1, 1, 2],
                                         pair(F422_10_ODD, 24, 27), pair(None, 32, 33), pair(None, 40, 47),
                                         FLUSH, [13, 1, 1, 0, 2, 4], [15, 1], [15, 3], [15, 4], [1]))
put(T, "collection_444", capi(init(), [3, 2, 4, 3, 0], [5, 2, 1], pair(F444_12, 8, 10),
                              pair(None, 8, 12), FLUSH, [13, 2, 2, 0, 0, 0], [13, 2, 3, 0, 1, 3], [15, 2], [1]))
put(T, "features_400", capi(init(threads=1), [6, 0, 0], [6, 1, 0], [6, 12, 0], pair(F400_16, 8, 9), FLUSH,
                            [13, 0, 4, 0, 0, 0, 0], [13, 0, 5, 0, 1, 3, 0], [15, 2], [1]))
put(T, "overload_and_flags", capi(init(), [2, 0, 0, 2, 3], [4, 0, 8, 1, 3, 4], [5, 0, 0],
                                  pair(F420_64, 8, 11), FLUSH, [13, 0, 0, 0, 0, 1], [1]))
put(T, "misuse", capi(init(), [2, 0, 0, 0, 0], [15, 2], [13, 0, 0, 0, 0, 1], [11, 0, 1, 0, 0],
                      [7, 0, 200, 1, 0, 9, 9], [7, 1, 200, 1, 0, 8, 9], [11, 0, 1, 0, 0], [11, 0, 240, 0, 0],
                      [7, 1, 200, 1, 0, 9, 9], [11, 0, 1, 220, 0], [11, 0, 1, 0, 250], [9, 0, 3, 17],
                      [11, 0, 1, 0, 0], [10, 0], [10, 0], [5, 0, 0], FLUSH, [6, 0, 0], FLUSH,
                      [11, 0, 1, 0, 0], [15, 0], [15, 250], [16, 0], [1]))
put(T, "pool_and_import", capi(init(), [6, 0, 0], [16, 1, 1, 200, 1, 0, 9, 9, 2], [16, 1, 0, 0], [16, 1, 0, 1],
                               [8, 0, 8], [8, 1, 9], [11, 0, 1, 0, 0], [16, 1, 0, 0], [16, 1, 0, 1], [14, 8, 1, 1],
                               [11, 0, 1, 0, 0], FLUSH, [14, 8, 1, 2], [13, 0, 4, 0, 0, 0, 8], [15, 2], [1]))
put(T, "close_mid_stream", capi(init(threads=3), [2, 0, 1, 1, 0], [5, 0, 0], pair(F420_64, 8, 9),
                                pair(None, 16, 17), [1], [0, 6, 0, 0, 0, 0], [1]))
put(T, "disable_transform_flag", capi(init(), [2, 0, 0, 2, 4], [5, 0, 0], pair(F420_64, 8, 9), FLUSH, [1]))
