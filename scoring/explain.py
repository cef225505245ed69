"""A result told in Chinese, for people at the table."""

from __future__ import annotations

import unicodedata
from typing import Any

from .record import SEAT_NAMES, SEATS

REASONS = {"win": "胡牌", "kong": "杠钱", "flower_kong": "花杠", "penalty": "罚分"}


def explain(hand: dict[str, Any], result: dict[str, Any], ruleset_name: str) -> str:
    """The breakdown of every win, the payments and the next hand, as plain text."""
    seat = SEAT_NAMES
    lines = [
        f"规则：{ruleset_name}（{result['ruleset']}，版本 {result.get('ruleset_version', '-')}）",
        f"庄家：{seat[hand['dealer']]}　本把比下胡：{'是' if hand.get('doubled') else '否'}",
    ]
    if not result["wins"]:
        lines.append("荒庄：无人胡牌")
    for win, record in zip(result["wins"], hand["wins"], strict=True):
        flags = record.get("flags") or ()
        how = "自摸" if not record.get("discarder") else f"{seat[record['discarder']]}家放炮"
        if "kuaizhao" in flags:
            how = "快照"
        elif "robbing_kong" in flags:
            how = "抢杠"
        if record.get("liable"):
            how += f"，{seat[record['liable']]}家包牌"
        lines.append(f"{seat[win['seat']]}家胡牌（{how}）：每份 {win['value']} 花")
        width = max(len(item["label"]) for item in win["breakdown"])
        for item in win["breakdown"]:
            lines.append(
                f"　　{item['label']}{'　' * (width - len(item['label']))}　{item['points']:>5}"
            )
        # who pays this win, as the payments say (a 包牌 share can differ from 每份)
        paid = [p for p in result["payments"] if p["reason"] == "win" and p["to"] == win["seat"]]
        if paid:
            lines.append(
                "　　收：" + "　".join(f"{seat[p['from']]}家付 {p['amount']} 花" for p in paid)
            )
    if result["payments"]:
        lines.append("付款：")
        for p in result["payments"]:
            lines.append(
                f"　　{seat[p['from']]} → {seat[p['to']]}　"
                f"{p['amount']} 花（{REASONS[p['reason']]}）"
            )
    lines.append("合计：" + "　".join(f"{seat[s]} {result['net'][s]:+d}" for s in SEATS))
    if "left" in result:
        lines.append("园子余额：" + "　".join(f"{seat[s]} {result['left'][s]}" for s in SEATS))
        if result.get("garden_over"):
            lines.append("本园子结束，开新园子")
    nxt = result["next"]
    lines.append(f"下一把：庄家 {seat[nxt['dealer']]}，比下胡 {'是' if nxt['doubled'] else '否'}")
    return "\n".join(lines)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def compare_text(hand: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """A hand under every ruleset side by side: each seat's net and each win's value
    in one table, then each ruleset's breakdown (rows from ``engine.compare``)."""
    width = max(_width(row["name"]) for row in rows) + 2
    lines = [_pad("", 10) + "".join(_pad(row["name"], width) for row in rows)]
    for win in hand.get("wins") or []:
        seat = win.get("seat")
        cells = []
        for row in rows:
            values = (
                [w["value"] for w in row["result"]["wins"] if w["seat"] == seat]
                if "result" in row
                else []
            )
            cells.append(_pad(f"每份 {values[0]}" if values else "—", width))
        lines.append(_pad(f"{SEAT_NAMES.get(seat, '?')}家胡", 10) + "".join(cells))
    for seat in SEATS:
        cells = [
            _pad(f"{row['result']['net'][seat]:+d}" if "result" in row else "—", width)
            for row in rows
        ]
        lines.append(_pad(f"{SEAT_NAMES[seat]}家合计", 10) + "".join(cells))
    for row in rows:
        lines.append("")
        lines.append(f"【{row['name']}】")
        if "result" in row:
            lines.append(explain({**hand, "ruleset": row["ruleset"]}, row["result"], row["name"]))
        else:
            lines.append(f"不能按此规则计分：{row['error_zh']}")
    return "\n".join(line.rstrip() for line in lines)
