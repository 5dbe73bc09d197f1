def run(jobs):
    for job in jobs:
        if job.ready:
            job.start()
    return len(jobs)
