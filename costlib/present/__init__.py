"""What a person reads: escaping of user text, words, figures, the HTML report and the policy file."""
