-- st2022-6.lua: Wireshark / tshark dissector for SMPTE ST 2022-6 (HBRMT)
-- over RTP. Part of gst-vmi; LGPL-2.1-or-later.
--
-- Wireshark (4.0) has no ST 2022-6 dissector. This one decodes the 8-byte
-- HBRMT header that follows the RTP header, the 4-byte video timestamp
-- present when CF is not 0, and the SDI payload (1376 bytes).
--
-- Use:
--   tshark -X lua_script:tools/st2022-6.lua -d udp.port==5004,rtp -r cap.pcap -V
--   (or copy it to ~/.local/lib/wireshark/plugins/)
-- The RTP payload type it claims is a preference, st2022_6.pt (default 98,
-- the convention): -o st2022_6.pt:111. "Decode As..." on RTP payload type
-- works too. UDP still has to be decoded as RTP (-d udp.port==PORT,rtp, or
-- Analyze > Enabled Protocols > rtp_udp).

local p = Proto("st2022_6", "SMPTE ST 2022-6 HBRMT")

local vs_vsid = { [0] = "Primary stream", [1] = "Protect stream" }
local vs_flag = { [0] = "Format fields not valid", [1] = "Format fields valid" }
local vs_ref = {
  [0] = "Not locked",
  [1] = "Reserved",
  [2] = "Locked to a UTC-traceable reference",
  [3] = "Locked to a private reference",
}
local vs_s = { [0] = "Not scrambled" }
local vs_fec = { [0] = "No FEC" }
local vs_cf = {
  [0] = "No video timestamp",
  [1] = "27 MHz",
  [2] = "148.5 MHz",
  [3] = "148.5/1.001 MHz",
  [4] = "297 MHz",
  [5] = "297/1.001 MHz",
}
local vs_map = {
  [0] = "Direct sample structure",
  [1] = "SMPTE ST 425-1 level B-DL",
  [2] = "SMPTE ST 425-1 level B-DS",
}
local vs_frame = {
  [0x10] = "720x486 (525i)",
  [0x11] = "720x576 (625i)",
  [0x20] = "1920x1080 interlaced (1080i)",
  [0x21] = "1920x1080 progressive (1080p)",
  [0x22] = "1920x1080 PsF (1080PsF)",
  [0x23] = "2048x1080 progressive",
  [0x24] = "2048x1080 PsF",
  [0x30] = "1280x720 progressive (720p)",
}
local vs_frate = {
  [0x10] = "60 fps",
  [0x11] = "59.94 fps",
  [0x12] = "50 fps",
  [0x14] = "48 fps",
  [0x15] = "47.95 fps",
  [0x16] = "30 fps",
  [0x17] = "29.97 fps",
  [0x18] = "25 fps",
  [0x1A] = "24 fps",
  [0x1B] = "23.98 fps",
}
local vs_sample = { [1] = "4:2:2 10-bit" }

local f = {
  ext = ProtoField.uint8("st2022_6.ext", "Ext", base.DEC, nil, 0xF0,
    "Number of 4-byte extension words"),
  f = ProtoField.uint8("st2022_6.f", "F", base.DEC, vs_flag, 0x08,
    "Video source format fields valid"),
  vsid = ProtoField.uint8("st2022_6.vsid", "VSID", base.DEC, vs_vsid, 0x07,
    "Video source ID"),
  frcount = ProtoField.uint8("st2022_6.frcount", "FRCount", base.DEC, nil,
    nil, "Frame counter (mod 256)"),
  r = ProtoField.uint8("st2022_6.r", "R", base.DEC, vs_ref, 0xC0,
    "Reference for time stamp"),
  s = ProtoField.uint8("st2022_6.s", "S", base.DEC, vs_s, 0x30,
    "Video payload scrambling"),
  fec = ProtoField.uint8("st2022_6.fec", "FEC", base.DEC, vs_fec, 0x0E,
    "FEC usage"),
  cf = ProtoField.uint16("st2022_6.cf", "CF", base.DEC, vs_cf, 0x01E0,
    "Clock frequency of the video timestamp"),
  reserved = ProtoField.uint8("st2022_6.reserved", "Reserved", base.HEX, nil,
    0x1F),
  map = ProtoField.uint8("st2022_6.map", "MAP", base.DEC, vs_map, 0xF0,
    "Video source format: mapping"),
  frame = ProtoField.uint16("st2022_6.frame", "FRAME", base.HEX, vs_frame,
    0x0FF0, "Video source format: frame structure"),
  frate = ProtoField.uint16("st2022_6.frate", "FRATE", base.HEX, vs_frate,
    0x0FF0, "Video source format: frame rate"),
  sample = ProtoField.uint8("st2022_6.sample", "SAMPLE", base.HEX, vs_sample,
    0x0F, "Video source format: sampling"),
  reserved2 = ProtoField.uint8("st2022_6.reserved2", "Reserved (fmt)",
    base.HEX),
  timestamp = ProtoField.uint32("st2022_6.timestamp", "Video timestamp",
    base.DEC, nil, nil, "Video words before the first whole sample, on the CF clock"),
  ext_data = ProtoField.bytes("st2022_6.ext_data", "Extension words"),
  payload_length = ProtoField.uint16("st2022_6.payload_length",
    "Payload length", base.DEC),
  payload = ProtoField.bytes("st2022_6.payload", "SDI data"),
}
p.fields = {
  f.ext, f.f, f.vsid, f.frcount, f.r, f.s, f.fec, f.cf, f.reserved, f.map,
  f.frame, f.frate, f.sample, f.reserved2, f.timestamp, f.ext_data,
  f.payload_length, f.payload,
}

local e_short = ProtoExpert.new("st2022_6.short", "Datagram shorter than the HBRMT header",
  expert.group.MALFORMED, expert.severity.ERROR)
local e_len = ProtoExpert.new("st2022_6.payload_length.bad",
  "SDI payload is not 1376 bytes", expert.group.PROTOCOL, expert.severity.WARN)
p.experts = { e_short, e_len }

p.prefs.pt = Pref.uint("RTP payload type", 98,
  "Dynamic RTP payload type carrying ST 2022-6 (96-127)")

local ST2022_6_PAYLOAD = 1376

function p.dissector(tvb, pinfo, tree)
  local len = tvb:len()
  local t = tree:add(p, tvb(), "SMPTE ST 2022-6 (HBRMT)")
  if len < 8 then
    t:add_proto_expert_info(e_short)
    return 0
  end
  pinfo.cols.protocol = "ST2022-6"
  t:add(f.ext, tvb(0, 1))
  t:add(f.f, tvb(0, 1))
  t:add(f.vsid, tvb(0, 1))
  t:add(f.frcount, tvb(1, 1))
  t:add(f.r, tvb(2, 1))
  t:add(f.s, tvb(2, 1))
  t:add(f.fec, tvb(2, 1))
  t:add(f.cf, tvb(2, 2))
  t:add(f.reserved, tvb(3, 1))
  t:add(f.map, tvb(4, 1))
  t:add(f.frame, tvb(4, 2))
  t:add(f.frate, tvb(5, 2))
  t:add(f.sample, tvb(6, 1))
  t:add(f.reserved2, tvb(7, 1))

  local off = 8
  local ext = tvb(0, 1):bitfield(0, 4)
  local cf = tvb(2, 2):bitfield(7, 4)
  if cf ~= 0 and len >= off + 4 then
    t:add(f.timestamp, tvb(off, 4))
    off = off + 4
  end
  if ext > 0 and len >= off + 4 * ext then
    t:add(f.ext_data, tvb(off, 4 * ext))
    off = off + 4 * ext
  end
  local plen = len - off
  local pl = t:add(f.payload_length, plen):set_generated()
  if plen ~= ST2022_6_PAYLOAD then
    pl:add_proto_expert_info(e_len)
  end
  if plen > 0 then
    t:add(f.payload, tvb(off, plen))
  end
  local frame = tvb(4, 2):bitfield(4, 8)
  local frate = tvb(5, 2):bitfield(4, 8)
  pinfo.cols.info:append(string.format(" ST 2022-6 FRCount=%d %s %s",
    tvb(1, 1):uint(), vs_frame[frame] or string.format("FRAME 0x%02x", frame),
    vs_frate[frate] or string.format("FRATE 0x%02x", frate)))
  return len
end

local rtp_pt = DissectorTable.get("rtp.pt")
local registered_pt = nil

local function register_pt()
  if registered_pt ~= nil then
    rtp_pt:remove(registered_pt, p)
  end
  registered_pt = p.prefs.pt
  rtp_pt:add(registered_pt, p)
end

function p.prefs_changed()
  register_pt()
end

register_pt()
rtp_pt:add_for_decode_as(p)
-- an SDP seen in the capture names the encoding: "SMPTE2022-6"
local dyn = DissectorTable.get("rtp_dyn_payload_type")
if dyn ~= nil then
  dyn:add("SMPTE2022-6", p)
end
