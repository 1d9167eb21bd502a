import json
import sys
from collections import defaultdict


def balances(expenses):
    bal = defaultdict(float)
    for item in expenses:
        share = item["amount"] / len(item["shared_by"])
        bal[item["payer"]] += item["amount"]
        for person in item["shared_by"]:
            bal[person] -= share
    return bal


def settle(bal):
    debtors = sorted((v, k) for k, v in bal.items() if v < -0.005)
    creditors = sorted(((v, k) for k, v in bal.items() if v > 0.005), reverse=True)
    moves = []
    while debtors and creditors:
        d_amt, d = debtors.pop(0)
        c_amt, c = creditors.pop(0)
        paid = min(-d_amt, c_amt)
        moves.append((d, c, round(paid, 2)))
        if -d_amt - paid > 0.005:
            debtors.insert(0, (d_amt + paid, d))
        if c_amt - paid > 0.005:
            creditors.insert(0, (c_amt - paid, c))
    return moves


if __name__ == "__main__":
    expenses = json.load(open(sys.argv[1]))
    for debtor, creditor, amount in settle(balances(expenses)):
        print(f"{debtor} pays {creditor} {amount:.2f}")
