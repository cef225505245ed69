"""A result told in Chinese, for people at the table."""

from __future__ import annotations

from typing import Any

from .record import SEATS

SEAT_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}
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
        how = "自摸" if not record.get("discarder") else f"{seat[record['discarder']]}家放炮"
        if record.get("liable"):
            how += f"，{seat[record['liable']]}家包牌"
        lines.append(f"{seat[win['seat']]}家胡牌（{how}）：每份 {win['value']} 花")
        width = max(len(item["label"]) for item in win["breakdown"])
        for item in win["breakdown"]:
            lines.append(
                f"　　{item['label']}{'　' * (width - len(item['label']))}　{item['points']:>5}"
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
