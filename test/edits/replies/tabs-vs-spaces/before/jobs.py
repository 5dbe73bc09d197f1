def run(jobs):
    for job in jobs:
        job.start()
    return len(jobs)
