def audit(gen):
    return {}
