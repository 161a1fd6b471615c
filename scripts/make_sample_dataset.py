#!/usr/bin/env python3
"""Writes resources/sample/support-tickets.csv: the small dataset bundled with BERT Studio.

Customer-support messages in four classes (billing, technical, shipping, account), built from
templates with a fixed seed so the file is the same on every run. It is messy the way real
exports are: quoted commas, doubled quotes, a line break inside a field, accents, emoji, a few
empty rows. Regenerate with:  python3 scripts/make_sample_dataset.py
"""
import csv
import os
import random

SEED = 20261122
ROWS_PER_CLASS = 150

SUBJECTS = {
    "billing": ["my invoice", "the last charge", "my refund", "the annual plan", "a double payment",
                "the VAT on my bill", "my credit card", "the receipt for March", "the price increase",
                "my subscription fee"],
    "technical": ["the app", "the export button", "the login page", "sync", "the desktop client",
                  "the API", "notifications", "the search", "the upload dialog", "dark mode"],
    "shipping": ["my parcel", "the delivery", "order #{n}", "the tracking number", "the courier",
                 "my package", "the return label", "the shipment to Lyon", "the box", "express delivery"],
    "account": ["my password", "my account", "two-factor authentication", "my e-mail address",
                "my username", "the account owner", "my profile", "the team seats", "my login",
                "account deletion"],
}
PROBLEMS = {
    "billing": ["was charged twice", "shows the wrong amount", "has not arrived yet",
                "does not match the quote", "was taken without my consent", "is higher than last month"],
    "technical": ["crashes on start", "shows an error 500", "freezes after the update",
                  "does not load", "is very slow today", "loses my changes"],
    "shipping": ["has not arrived", "was delivered to the wrong address", "arrived damaged",
                 "is stuck in customs", "says delivered but nothing came", "is late by a week"],
    "account": ["is locked", "cannot be reset", "was changed without me", "does not accept my code",
                "keeps logging me out", "needs to be transferred"],
}
OPENERS = ["Hello,", "Hi team,", "Bonjour,", "Dear support,", "Hey!", "", "Good morning,", "Hallo,"]
CLOSERS = ["Thanks.", "Please help!", "Regards, Anna", "Merci d'avance 🙏", "Thank you, José",
           "This is urgent.", "", "Cheers 😀"]
EXTRAS = {
    "billing": ["I need a corrected invoice, with the company name.", "Can you refund the €{n}?",
                "My bank says the payment \"failed\", yet you took it."],
    "technical": ["I tried reinstalling, clearing the cache, and rebooting.",
                  "Error code: E{n}, see the screenshot.", "It worked fine on version 2.{n}."],
    "shipping": ["The tracking page says \"in transit\" since Monday.", "I paid for express, not standard.",
                 "Can you send a new one, or refund it?"],
    "account": ["I no longer have access to my old phone.", "Please add my colleague, Zoë, as admin.",
                "The reset e-mail never arrives, even in spam."],
}


def ticket(rng, label):
    subject = rng.choice(SUBJECTS[label]).format(n=rng.randint(1000, 9999))
    body = f"{subject} {rng.choice(PROBLEMS[label])}."
    parts = [rng.choice(OPENERS), body[0].upper() + body[1:]]
    if rng.random() < 0.6:
        parts.append(rng.choice(EXTRAS[label]).format(n=rng.randint(2, 99)))
    closer = rng.choice(CLOSERS)
    text = " ".join(p for p in parts if p)
    if closer:
        text += ("\n" if rng.random() < 0.05 else " ") + closer
    return text


def main():
    rng = random.Random(SEED)
    rows = [(ticket(rng, label), label) for label in SUBJECTS for _ in range(ROWS_PER_CLASS)]
    rng.shuffle(rows)
    rows[7] = ("", rows[7][1])  # an empty text, as exports have: skipped and counted on import
    out = os.path.join(os.path.dirname(__file__), "..", "resources", "sample", "support-tickets.csv")
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["text", "label"])
        writer.writerows(rows)


if __name__ == "__main__":
    main()
