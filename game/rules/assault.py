"""Close assault and special weapons (DD-5.22, DD-5.30-5.36). Filled in below."""
