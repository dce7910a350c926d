"""forge's built-in languages: one plugin module each, registered like third-party ones.

Each module ends in its ``forge_languages`` hook implementation and imports
its grammar wheel only inside ``load_grammar``, so listing languages costs
no grammar import.
"""
